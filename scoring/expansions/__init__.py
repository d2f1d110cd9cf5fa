"""The eight expansions from the rulebooks, one module each, and the helpers they share.

Nothing is imported here: the registry is ``scoring/registry.py``, the base class
``scoring/expansion_api.py``, and every module is imported from its own name. The notation
is documented in docs/NOTATION.md.
"""
