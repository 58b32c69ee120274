"""Declaration-level data of a source beyond its :class:`~schemarouter.models.Source`: how a generic
adapter calls it (:mod:`~schemarouter.sources.spec`) and a user's own source read from a file
(:mod:`~schemarouter.sources.local`). Below the registry, which stores both."""
