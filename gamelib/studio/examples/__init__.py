"""Worked examples of studio games, each a short module to read: Pig, a dice race, and a bluffing game."""
