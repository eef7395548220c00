"""The plumbing every app's doors share: DRF pagination and strict fields, the schema's error
responses, the signed-in player, error texts for pages, and Celery tasks sent off the caller's
thread. Above core, below the apps."""
