"""Built-in behaviour, shipped as plugins so it travels the same path as everyone else's."""
