"""nvidia.com/v1alpha1 <-> v1beta1 conversion of DGD, DCD and DGDR (plain dicts in, new dicts out).

The entry points are in ``_v1alpha1`` (``to_v1beta1``, ``to_v1alpha1``, ``ConversionError``, the
annotation keys); each kind and direction has its module (``_dgd_to_hub``, ``_dgd_from_hub``,
``_dcd_to_hub``, ``_dcd_from_hub``, ``_dgdr_to_hub``, ``_dgdr_from_hub``; the hub is v1beta1). Below
them: the saves and restores of what the other version cannot hold (``_spoke_save``,
``_spoke_restore``, ``_hub_save``, ``_hub_restore``, ``_status``), the component mapping without
preservation (``_component_to_hub``, ``_component_from_hub``), field tables and the object envelope
(``_fields``, ``_dgdr_fields``, ``_envelope``, ``_fill``), the annotation payloads (``_annotations``)
and JSON helpers (``_json``). pyproject's import-linter contract holds these layers. Nothing is
imported here, so a command that does not convert does not load the converter.
"""
