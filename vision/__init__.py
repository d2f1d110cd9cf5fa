"""Photo to grid: load, locate, rectify, unbend, orient, crop, classify and decode a Railroad Ink
board.

Also holds the synthetic board renderer (``vision.render``). The command line and the rest of
the product live in ``rink``.
"""
