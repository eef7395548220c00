"""The small core every app shares: the refusal tree and the game's limits. No Django, no HTTP."""
