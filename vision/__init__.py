"""Photo to board: locate, rectify, crop, classify and decode a Railroad Ink board.

Also holds the synthetic board renderer (``vision.render``) and the ``rink`` command line.
"""
