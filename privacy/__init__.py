"""A player's own data: the export of everything the site holds about them (GDPR 15, 20), and
the deletion of their account (GDPR 17)."""
