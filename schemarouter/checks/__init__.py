"""Declaration checks beyond the models: units (pint), license ids (SPDX), shared source names.

They warn rather than fail, because a plugin's declaration is not the user's to fix;
``--strict`` on ``registry sync``, ``registry check``, ``source add`` and ``source import-openapi``
turns every warning into an error.
"""
