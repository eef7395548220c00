"""Benchmarks: scripts run as `.venv/bin/python bench/<name>.py`; see the README."""
