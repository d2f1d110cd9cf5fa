"""The shipped ONNX models and their metadata (data only), installed as ``rink.models``.

Find them with ``vision.model_files.models_dir()``, never by a path relative to the source.
"""
