"""The plumbing every app's doors share: DRF pagination and strict fields, the schema's error
responses, the signed-in player, and error texts for pages. Above core, below the apps."""
