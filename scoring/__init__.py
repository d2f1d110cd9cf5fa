"""The Railroad Ink rules engine: notation, board model and scoring (pure Python)."""
