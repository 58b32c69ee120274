"""Apply the overlay to the draft endpoints and build the validated local source.

The overlay is checked against what the import produced: an endpoint, field or parameter it
names must exist, so a typo is an error naming the overlay file and the key, never a silently
ignored setting.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from schemarouter.declarations import coerce
from schemarouter.models import Auth, License, Source
from schemarouter.openapi.errors import OpenAPIImportError, mapping
from schemarouter.openapi.mapper import DraftEndpoint
from schemarouter.openapi.naming import slugify
from schemarouter.openapi.overlay import EndpointOverlay, FieldOverlay, Overlay
from schemarouter.openapi.report import ImportReport
from schemarouter.openapi.units import UnitCheck, unit_said
from schemarouter.sources.local import LocalSource, check_adapter_specs
from schemarouter.sources.spec import AdapterSpec

DEFAULT_GROUP = "content"
DEFAULT_DOMAIN = "general"


def _missing(kind: str, name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else f" (the import produced: {', '.join(known[:12]) or 'none'})"
    return f"no {kind} {name!r} in the import{hint}"


class Builder:
    """Turns draft endpoints and the overlay into a validated local source."""

    def __init__(
        self, doc: dict[str, Any], spec_file: str, overlay: Overlay, overlay_file: str, source_id: str,
        report: ImportReport, unit_known: UnitCheck | None = None,
    ) -> None:
        self.doc = doc
        self.unit_known = unit_known  # reads units from descriptions where given (see openapi.units)
        self.spec_file = spec_file
        self.overlay = overlay
        self.overlay_file = overlay_file
        self.source_id = source_id
        self.report = report

    def check_overlay_names(self, drafts: list[DraftEndpoint], excluded: set[str]) -> None:
        """Fail on an overlay endpoint or field name that the import did not produce."""
        ids = [d.id for d in drafts]
        # operations left out for want of response fields have ids too: the overlay may name them
        undescribed = {endpoint_id: place for place, endpoint_id in self.report.undescribed.items()}
        for endpoint_id in self.overlay.endpoints:
            if endpoint_id in ids or endpoint_id in excluded:
                continue
            if endpoint_id in undescribed:
                raise OpenAPIImportError(
                    self.overlay_file, f"endpoints.{endpoint_id}",
                    f"{undescribed[endpoint_id]} describes no response fields the import could map; declare them "
                    f"under endpoints.{endpoint_id}.fields with a path each",
                )
            raise OpenAPIImportError(self.overlay_file, f"endpoints.{endpoint_id}",
                                     _missing("endpoint", endpoint_id, [*ids, *undescribed]))
        all_names = {n for d in drafts for n in d.names}
        for name, declared in self.overlay.fields.items():
            if declared.path is not None:
                raise OpenAPIImportError(
                    self.overlay_file, f"fields.{name}.path",
                    "a field with a path belongs to one endpoint: declare it under endpoints.<id>.fields",
                )
            if name not in all_names:
                raise OpenAPIImportError(self.overlay_file, f"fields.{name}", _missing("field", name, sorted(all_names)))

    def build(self, drafts: list[DraftEndpoint]) -> LocalSource:
        """Apply the overlay to the drafts and validate the resulting source and adapter specs."""
        endpoints: list[dict[str, Any]] = []
        specs: dict[str, AdapterSpec] = {}
        # an operation behind the user's authorization in a document that serves reads without any
        # reads the caller's own space (figshare's /account/articles beside /articles)
        public_reads = any(d.access == "read" and not d.authorized for d in drafts)
        for draft in drafts:
            ov = self.overlay.endpoints.get(draft.id) or EndpointOverlay()
            built = self._endpoint(draft, ov, "account" if (public_reads and draft.authorized) or _own(draft.path)
                                   else "public")
            endpoints.append(built)
            locations: dict[str, Any] = {p.name: p.location for p in draft.params if p.location in ("path", "body")}
            specs[built["id"]] = AdapterSpec(
                records=draft.records, locations=locations, fixed={**draft.fixed, **ov.fixed},
                unit_from=dict(ov.unit_from)
            )
            self.report.places[built["id"]] = draft.place
        if not endpoints:
            first = self.report.unmapped[0] if self.report.unmapped else None
            problem = "no operation could be mapped to an endpoint (see the report)"
            if self.report.undescribed:
                place, endpoint_id = next(iter(self.report.undescribed.items()))
                problem += (f"; where the document describes no response fields, declare them in the overlay "
                            f"(for {place}: endpoints.{endpoint_id}.fields.<name>.path)")
            if first is not None:
                raise OpenAPIImportError(self.spec_file, first.place, f"{first.construct}"
                                         + (f" ({first.detail})" if first.detail else "") + f"; {problem}")
            raise OpenAPIImportError(self.spec_file, "paths", problem)
        for place, endpoint_id in self.report.undescribed.items():
            self.report.notes.append(f"{place}: left out for want of response fields; declare them in the overlay "
                                     f"under endpoints.{endpoint_id}.fields (a path each)")
        if not any(e["access"] == "read" for e in endpoints):
            self.report.notes.append("no read endpoint: only write operations were found")
        source_data = self._source(drafts, endpoints)
        owner = self.spec_file + (f" with overlay {self.overlay_file}" if self.overlay_file != "overlay" else "")
        source = coerce(Source, source_data, owner, "source")
        local = LocalSource(source, specs)
        check_adapter_specs(local, owner)
        self.report.endpoints = len(source.endpoints)
        self.report.write_endpoints = sum(1 for e in source.endpoints if e.access == "write")
        self.report.endpoint_ids = [e.id for e in source.endpoints]
        self.report.parameters = sum(len(e.parameters) for e in source.endpoints)
        self.report.fields = sum(len(e.fields) for e in source.endpoints)
        return local

    def _endpoint(self, draft: DraftEndpoint, ov: EndpointOverlay, scope: str) -> dict[str, Any]:
        where = f"endpoints.{draft.id}"
        for name in list(ov.fields) + ov.drop_fields:
            if name not in draft.names:
                raise OpenAPIImportError(self.overlay_file, f"{where}.fields.{name}", _missing("field", name, draft.names))
        param_names = [p.name for p in draft.params]
        for name in ov.parameters:
            if name not in param_names:
                raise OpenAPIImportError(self.overlay_file, f"{where}.parameters.{name}", _missing("parameter", name, param_names))
        identifier = ov.identifier or draft.identifier
        if ov.identifier and ov.identifier not in draft.names:
            raise OpenAPIImportError(self.overlay_file, f"{where}.identifier", _missing("field", ov.identifier, draft.names))
        for name, field_ov in ov.fields.items():
            if field_ov.identifier:
                identifier = name
        if identifier is None and draft.access == "read":
            self.report.notes.append(
                f"{draft.place}: no identifier field (no id-like property); imported without one, "
                f"set {where}.identifier in the overlay to name the record key"
            )
        fields = []
        read_units: list[str] = []  # units read from the fields' names and descriptions, for the report
        for flat, name in zip(draft.fields, draft.names, strict=True):
            if name in ov.drop_fields:
                continue
            fo: dict[str, Any] = _merge(self.overlay.fields.get(name), ov.fields.get(name))
            is_id = name == identifier
            group = fo.get("group") or ("identity" if is_id else self.overlay.default_group or DEFAULT_GROUP)
            description = fo.get("description") or flat.description
            if flat.item_type and flat.type == "array" and not fo.get("description"):
                description = (description + " " if description else "") + f"(list of {flat.item_type})"
            unit = fo.get("unit") or flat.unit
            if unit is None and (unit := unit_said(flat, self.unit_known)) is not None:
                read_units.append(f"{fo.get('name') or name} ({unit})")
            fields.append({
                "name": fo.get("name") or name, "path": flat.path, "type": fo.get("type") or flat.type,
                "unit": unit, "group": group, "identifier": is_id,
                "concepts": fo.get("concepts") or [], "aliases": fo.get("aliases") or [],
                "description": description[:4000], "source_type": fo.get("source_type"), "license": fo.get("license"),
            })
        if read_units:
            self.report.notes.append(f"{draft.place}: units read from names and descriptions: {', '.join(read_units)}; "
                                     f"correct any under endpoints.{draft.id}.fields.<name>.unit in the overlay")
        params = []
        for p in draft.params:
            po = ov.parameters.get(p.name)
            params.append({
                "name": p.name, "type": p.type,
                "required": po.required if po and po.required is not None else p.required,
                "concept": po.concept if po else None,
                "description": (po.description if po and po.description else p.description),
                "example": po.example if po and po.example is not None else p.example,
                "enum": (po.enum or None) if po and po.enum is not None else p.enum,
                "enum_labels": (po.enum_labels or None) if po and po.enum_labels is not None else p.enum_labels,
                "format": p.format, "pattern": p.pattern,
            })
        return {
            "id": ov.id or draft.id, "method": draft.method, "access": draft.access, "scope": scope,
            "base_url": draft.base_url,
            "path": draft.path, "summary": draft.summary, "tags": draft.tags,
            "description": ov.description or draft.description,
            "intents": ov.intents if ov.intents is not None else list(self.overlay.intents),
            "projection": ov.projection, "parameters": params, "fields": fields,
        }

    def _source(self, drafts: list[DraftEndpoint], endpoints: list[dict[str, Any]]) -> dict[str, Any]:
        info = mapping(self.doc.get("info"), self.spec_file, "info", "'info'")
        ov = self.overlay
        if ov.source_type is None:
            raise OpenAPIImportError(
                self.overlay_file if self.overlay_file != "overlay" else self.spec_file, "source_type",
                "OpenAPI cannot say where values come from; give source_type in the overlay "
                "(calculated, experimental, literature, curated, regulatory or web)",
            )
        docs: dict[str, Any] = self.doc["externalDocs"] if isinstance(self.doc.get("externalDocs"), dict) else {}
        contact: dict[str, Any] = info["contact"] if isinstance(info.get("contact"), dict) else {}
        homepage = ov.homepage or docs.get("url") or contact.get("url")
        homepage = str(homepage) if homepage is not None else None
        return {
            "id": self.source_id, "title": ov.title or str(info.get("title") or self.source_id)[:200],
            "aliases": ov.aliases, "domain": ov.domain or DEFAULT_DOMAIN,
            "description": (ov.description or str(info.get("description") or "")).strip()[:4000],
            "homepage": homepage, "source_type": ov.source_type, "license": self._license(info),
            "auth": self._auth(drafts), "priority": ov.priority if ov.priority is not None else 5,
            "endpoints": endpoints,
        }

    def _license(self, info: dict[str, Any]) -> License:
        if self.overlay.license is not None:
            return self.overlay.license
        lic = info.get("license") or {}
        if isinstance(lic, dict) and lic.get("name"):
            lic_id = lic.get("identifier") or "LicenseRef-" + slugify(str(lic["name"])).replace("_", "-")
            return coerce(License, {"id": lic_id, "name": str(lic["name"]), "url": lic.get("url")}, self.spec_file, "info.license")
        raise OpenAPIImportError(
            self.overlay_file if self.overlay_file != "overlay" else self.spec_file, "license",
            "the document has no info.license; give license (id, name, url, attribution) in the overlay",
        )

    def _auth(self, drafts: list[DraftEndpoint]) -> Auth | None:
        if self.overlay.auth is not None:
            return self.overlay.auth
        components = mapping(self.doc.get("components"), self.spec_file, "components", "'components'")
        schemes = mapping(components.get("securitySchemes"), self.spec_file, "components securitySchemes", "'securitySchemes'")
        used = sorted({name for d in drafts for name in d.security})
        if not used:
            if self.overlay.auth_env:
                raise OpenAPIImportError(self.overlay_file, "auth_env", "the document uses no security scheme; give a whole auth block instead")
            return None
        usable: list[tuple[str, str, str]] = []
        for name in used:
            scheme = mapping(schemes.get(name), self.spec_file, f"components securitySchemes {name}", "a security scheme")
            kind = scheme.get("type")
            if kind == "apiKey" and scheme.get("in") in ("query", "header"):
                usable.append((name, scheme["in"], str(scheme.get("name"))))
            elif kind == "http" and str(scheme.get("scheme", "")).lower() == "bearer":
                usable.append((name, "header", "Authorization"))
                self.report.notes.append(f"security scheme {name}: bearer; the env var must hold 'Bearer <token>'")
            else:
                self.report.add(f"components securitySchemes {name}", f"security scheme {kind}", "not mapped")
        if not usable:
            return None
        if not self.overlay.auth_env:
            self.report.add(
                f"components securitySchemes {usable[0][0]}", "auth without an env var name",
                "give auth_env (the NAME of the environment variable holding the key) in the overlay",
            )
            return None
        _name, location, param = usable[0]
        return Auth.model_validate({"env": self.overlay.auth_env, "in": location, "name": param})


def _merge(*overlays: FieldOverlay | None) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for fo in overlays:
        if fo is not None:
            merged.update({k: v for k, v in fo.model_dump(exclude_none=True).items()})
            if fo.license is not None:
                merged["license"] = fo.license
    return merged


# "/me" is the authenticated caller by REST convention (``/me/videos``, ``/me/ondemand/purchases``):
# what lies under it is the caller's own, whatever else the document serves without authorization
_OWN = re.compile(r"^/me(?:/|$)")


def _own(path: str) -> bool:
    """Whether ``path`` reads the caller's own space by its first segment (``/me``)."""
    return _OWN.match(path) is not None
