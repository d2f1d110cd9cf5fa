"""Counting words for score-sheet lines: ``counted(1, "Exit")`` -> '1 Exit', 2 -> '2 Exits'."""


def counted(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"
