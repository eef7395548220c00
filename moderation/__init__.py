"""Moderation: players' reports, sanctions, aborting and voiding games, and the audit log."""
