"""The open-world sections of ``docs/benchmark.md``: imported-sources dev set and RestBench TMDB."""

from __future__ import annotations

from typing import Any

from schemarouter_bench.report import fmt, md_table

IMPORTED = [
    ("endpoint_set_exact", "endpoint set exact"),
    ("fields_found", "gold fields found"),
    ("required_params_filled", "required params filled"),
    ("answerable_declined", "answerable declined"),
    ("actions_declined", "actions declined"),
    ("out_of_scope_declined", "out-of-scope declined"),
    ("chained_exact", "chained: endpoint set exact"),
    ("other_language", "other languages: exact / declined"),
    ("latency_p50_ms", "p50 (ms)"),
]
TMDB = [
    ("endpoints_found", "gold endpoints found"),
    ("chain_exact", "whole chain exact"),
    ("first_correct", "first endpoint correct"),
    ("no_plan", "no plan at all"),
    ("latency_p50_ms", "p50 (ms)"),
]


def fmt_cell(summary: dict[str, Any], key: str) -> str:
    """One summary figure as the tables show it (counts as "n / of", rates as fractions or %)."""
    s = summary
    if key == "actions_declined":
        return f"{s['actions_declined']} / {s['actions']}"
    if key == "out_of_scope_declined":
        return f"{s['out_of_scope_declined']} / {s['out_of_scope']}"
    if key == "other_language":
        return f"{s['other_language_exact']} / {s['other_language_declined']} of {s['other_language']}"
    if key == "no_plan":
        return f"{s['no_plan']} / {s['queries']}"
    if key == "answerable_declined":
        value = s.get(key)
        return "-" if value is None else f"{100 * value:.1f} %"
    if key == "latency_p50_ms":
        return fmt(s.get(key), 3)
    return fmt(s.get(key))


def _registry(facts: dict[str, Any]) -> list[str]:
    imported = ", ".join(
        f"{sid} {f['endpoints']} of {f['operations']} GET operations" for sid, f in facts["imported"].items()
    )
    return [
        (
            f"Registry: {facts['origin']} - {facts['sources']} sources, {facts['endpoints']} endpoints, fingerprint "
            f"`{(facts.get('fingerprint') or '-')[:23]}...`. Each document went through `source import-openapi` with "
            "only the overlay a user must write (title, source type, license; the key's environment variable, and "
            "a base URL where the document's server is relative). What the importer mapped today: "
            f"{imported}."
        ),
        "",
    ]


def _imported(suite: dict[str, Any]) -> list[str]:
    routers = suite["routers"]
    kinds = suite["kinds"]
    first = routers[0]["summary"] if routers else {}
    out = [
        "### Imported-sources dev set",
        "",
        (
            f"{suite['questions']} requests over {len(suite['apis'])} real public APIs "
            f"({', '.join(suite['apis'])}; documents from the APIs.guru directory, CC0; gold written from the "
            f"documents, `bench/schemarouter_bench/data/imported/`): {kinds['answer']} answerable questions "
            f"({first.get('answerable', '-')} in English, {first.get('other_language', '-')} in other languages), "
            f"{kinds['action']} action requests that no read can serve, {kinds['out_of_scope']} questions no "
            "source can answer."
        ),
        "",
        *md_table(
            ["router", *[label for _, label in IMPORTED]],
            [[r["name"], *[fmt_cell(r["summary"], k) for k, _ in IMPORTED]] for r in routers],
        ),
        "",
        (
            "- *Endpoint set exact*: the plan's (source, endpoint) multiset equals the gold's or an acceptable "
            "alternative's. *Gold fields found*: recall over the gold's (endpoint, field) pairs (identifier "
            "fields left out only where the gold marks them). *Required params filled*: of the parameter values "
            "the gold step carries (the values the question requires), the share the plan fills with the gold "
            "literal after normalization, or binds to a producer step on the gold producer's endpoint. "
            "*Answerable declined*: plans with no step. These four are over the English answerable questions; "
            "questions in other languages are reported apart (a valid plan or a clear decline is expected)."
        ),
        f"- {first.get('gold_not_imported', '-')} English answerable questions have gold on operations today's "
        "importer does not map (no identifier field, non-JSON, read-only POST); they count as misses for "
        "every router. Endpoint set exact over the others only: "
        + ", ".join(f"{r['name']} {fmt_cell(r['summary'], 'importable_exact')}" for r in routers)
        + ".",
        "- Declines of action requests that name the write operation that would do it: "
        + ", ".join(
            f"{r['name']} {r['summary']['actions_naming_write']} of {r['summary']['actions_with_write']}"
            for r in routers
        )
        + ". Parameters the document itself marks required, filled: "
        + ", ".join(f"{r['name']} {fmt_cell(r['summary'], 'document_required_filled')}" for r in routers)
        + ".",
        "",
    ]
    apis = sorted({a for r in routers for a in r["per_api"]})
    if apis:
        out += [
            "Endpoint set exact per API (English answerable questions):",
            "",
            *md_table(
                ["API", "n", *[r["name"] for r in routers]],
                [
                    [
                        a,
                        str(routers[0]["per_api"].get(a, {}).get("n", "-")),
                        *[fmt(r["per_api"].get(a, {}).get("endpoint_set_exact")) for r in routers],
                    ]
                    for a in apis
                ],
            ),
            "",
        ]
    return out


def _tmdb(suite: dict[str, Any]) -> list[str]:
    routers = suite["routers"]
    first = routers[0]["summary"] if routers else {}
    return [
        "### RestBench TMDB",
        "",
        (
            f"{suite['queries']} RestBench queries over the TMDB document "
            "(MIT; `bench/schemarouter_bench/data/restbench/`), "
            "each with its gold chain of calls. Plan steps map to `METHOD /path` through the registry; path "
            "variable names are ignored (RestBench spells one `/person/{movie_id}/...`). *Gold endpoints found*: "
            "multiset recall of the gold chain's calls in the plan; *whole chain exact*: the ordered lists are "
            f"equal. {first.get('gold_not_imported', '-')} queries need a call today's importer does not map."
        ),
        "",
        *md_table(
            ["router", *[label for _, label in TMDB]],
            [[r["name"], *[fmt_cell(r["summary"], k) for k, _ in TMDB]] for r in routers],
        ),
        "",
    ]


def open_world_sections(open_world: dict[str, Any] | None) -> list[str]:
    """Markdown lines for the open-world suites that ran (none when neither ran)."""
    if not open_world or not (open_world.get("imported") or open_world.get("tmdb")):
        return []
    out = [
        "## Sources nobody tuned the router for",
        "",
        (
            "Real public API documents imported the way a user would, planned over together with the first-party "
            "sources in one registry. BM25 rows take a fixed number of endpoints per plan (the top 1 or 2 by BM25; "
            "a k taken from the gold would be cheating). `--json` lists every question's plan and what failed."
        ),
        "",
        *_registry(open_world["registry"]),
    ]
    if open_world.get("imported"):
        out += _imported(open_world["imported"])
    if open_world.get("tmdb"):
        out += _tmdb(open_world["tmdb"])
    return out
