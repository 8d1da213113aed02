"""The language server (``dynamo-schema lsp``): ``validate``'s diagnostics, hover, completion and code
actions in the editor. ``_server`` (pygls, imported only by the ``lsp`` command) over ``_analysis`` (the
buffer through ``validate``'s pipeline), ``_schemainfo`` (what the schemas say about a field), ``_settings``
and ``_text`` (where the cursor is). Nothing is imported here."""
