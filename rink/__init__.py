"""rink, the product: the ``rink`` command line, batch runs, inputs, score-sheet text,
leaderboards and safe file writes, on top of ``scoring`` (rules) and ``vision`` (photo to
grid). The shipped ONNX models are the data package ``rink.models`` (the repo's ``models/``).
"""
