"""The optional config file: settings a user would otherwise export in every shell.

One TOML file (read with the standard library's ``tomllib``) holds the registry URL, the LLM
endpoint, execution timeouts and the response cache. It is found at ``--config PATH``, else
``$SCHEMAROUTER_CONFIG``, else ``config.toml`` in the data directory (where the default registry
lives; ``SCHEMAROUTER_HOME`` moves it). Precedence is: a command-line option, then the
environment variable, then the file, then the built-in default. :func:`setting` is the one call
the rest of the code makes.

Keys are never read from the file: a secret-looking key is refused with a message naming the
environment variable to use instead, so a config file can be shared or committed safely.
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from schemarouter.errors import SchemaRouterError

CONFIG_ENV = "SCHEMAROUTER_CONFIG"
FILE_NAME = "config.toml"


class ConfigError(SchemaRouterError):
    """The config file cannot be used; the message names the file, the line and the key."""


def _url(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("must be a non-empty string (a URL)")
    return value.strip()


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("must be a non-empty string")
    return value.strip()


def _seconds(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise TypeError("must be a number of seconds")
    try:
        number = float(value)
    except ValueError:
        raise ValueError(f"must be a number of seconds, not {value!r}") from None
    if not number > 0:
        raise ValueError(f"must be a positive number of seconds, not {value!r}")
    return number


def _whole_seconds(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise TypeError("must be a whole number of seconds")
    try:
        number = int(value)
    except ValueError:
        raise ValueError(f"must be a whole number of seconds, not {value!r}") from None
    if number < 0:
        raise ValueError(f"must be zero or more seconds, not {value!r}")
    return number


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _flag(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise ValueError(f"must be true or false, not {value!r}")


def _directory(value: Any) -> str:
    return str(Path(_text(value)).expanduser())


def _cache_backend(value: Any) -> str:
    text = _text(value)
    if text != "sqlite" and not text.startswith(("redis://", "rediss://", "unix://")):
        # only the scheme is named: the rest of a URL may carry a password
        raise ValueError(f'must be "sqlite" or a redis:// URL, not a {text.split(":", 1)[0]!r} one')
    return text


@dataclass(frozen=True)
class Key:
    """One known setting: how to check a value, and which environment variable overrides it."""

    check: Callable[[Any], Any]
    env: str | None
    help: str


# Every key the file may hold. Code that reads a setting passes the same env name to setting().
KEYS: dict[str, dict[str, Key]] = {
    "registry": {
        "url": Key(_url, "SCHEMAROUTER_DATABASE_URL", "registry database URL (sqlite:///PATH or postgresql+psycopg://...)"),
    },
    "llm": {
        "url": Key(_url, "SCHEMAROUTER_LLM_URL", "OpenAI-compatible base URL, e.g. http://localhost:11434/v1"),
        "model": Key(_text, "SCHEMAROUTER_LLM_MODEL", "model name"),
    },
    "execution": {
        "timeout": Key(_seconds, "SCHEMAROUTER_TIMEOUT", "seconds one HTTP request may take"),
        "step_deadline": Key(_seconds, "SCHEMAROUTER_STEP_DEADLINE", "seconds one plan step may take in all"),
    },
    "cache": {
        "enabled": Key(_flag, "SCHEMAROUTER_CACHE", "reuse recent responses of live calls (true/false)"),
        "dir": Key(_directory, "SCHEMAROUTER_CACHE_DIR", "folder of the response cache"),
        "default_ttl": Key(_whole_seconds, "SCHEMAROUTER_CACHE_TTL", "seconds a cached response is reused"),
        "backend": Key(_cache_backend, "SCHEMAROUTER_CACHE_BACKEND",
                       'where cached responses and built graphs are shared: "sqlite" (a local file) or "redis://HOST:PORT/DB"'),
    },
    "graph": {
        "cache": Key(_flag, "SCHEMAROUTER_GRAPH_CACHE", "keep the built graph in a cache file beside the registry (true/false)"),
        "build_wait": Key(_whole_seconds, "SCHEMAROUTER_GRAPH_BUILD_WAIT",
                          "seconds a server sharing graphs through Redis waits for another's build (0: build itself)"),
    },
    "routing": {
        "dense": Key(_flag, "SCHEMAROUTER_DENSE",
                     "re-rank with the dense index of schemarouter-embeddings too (true/false; default false)"),
    },
}

# Every environment variable schemarouter reads (a test checks the code reads no other): a
# SCHEMAROUTER_ name outside this set is a typo the CLI warns about, never silently ignored.
ENVIRONMENT = frozenset({
    "SCHEMAROUTER_ALLOW_WRITES", "SCHEMAROUTER_API_TOKEN", "SCHEMAROUTER_AUTO_MIGRATE",
    "SCHEMAROUTER_BENCH_POSTGRES_URL", "SCHEMAROUTER_CACHE", "SCHEMAROUTER_CACHE_BACKEND", "SCHEMAROUTER_CACHE_DIR", "SCHEMAROUTER_CACHE_TTL",
    "SCHEMAROUTER_CASSETTES", "SCHEMAROUTER_CONFIG", "SCHEMAROUTER_CONTACT_EMAIL", "SCHEMAROUTER_DATABASE_URL",
    "SCHEMAROUTER_DEBUG", "SCHEMAROUTER_DENSE", "SCHEMAROUTER_GRAPH_BUILD_WAIT", "SCHEMAROUTER_GRAPH_CACHE", "SCHEMAROUTER_HOME", "SCHEMAROUTER_LLM_API_KEY", "SCHEMAROUTER_LLM_MODEL",
    "SCHEMAROUTER_LLM_URL", "SCHEMAROUTER_LOAD_PLUGINS", "SCHEMAROUTER_MCP_RECORD", "SCHEMAROUTER_STEP_DEADLINE",
    "SCHEMAROUTER_TIMEOUT",
})
# what a user may call a setting by the project's own words ("the registry" is the database)
_SAID_FOR = {"REGISTRY": "SCHEMAROUTER_DATABASE_URL", "DB": "SCHEMAROUTER_DATABASE_URL"}
# a source's key may live in a variable of any name, this prefix included
_KEY_LIKE = re.compile(r"_(?:KEY|TOKEN|SECRET|PASSWORD)$")


def unknown_environment(environ: Mapping[str, str] | None = None) -> list[str]:
    """One warning per SCHEMAROUTER_ variable that is no setting (a likely typo), naming the closest
    setting; variables named like a key are left alone (a source's key may be called anything)."""
    variables = environ if environ is not None else os.environ
    warnings = []
    for name in sorted(variables):
        if not name.startswith("SCHEMAROUTER_") or name in ENVIRONMENT or _KEY_LIKE.search(name):
            continue
        words = name.removeprefix("SCHEMAROUTER_")
        said = next((setting for word, setting in _SAID_FOR.items() if word in words.split("_")), None)
        close = difflib.get_close_matches(words, [k.removeprefix("SCHEMAROUTER_") for k in sorted(ENVIRONMENT)], n=1)
        hint = said or (f"SCHEMAROUTER_{close[0]}" if close else None)
        warnings.append(f"{name} is not a schemarouter setting and is ignored"
                        + (f"; did you mean {hint}?" if hint else ""))
    return warnings


# Where a key would go instead; matched against a key's name in any section.
_SECRET = re.compile(r"(^|_)(api_?key|key|token|secret|password|passwd|credentials?)$", re.IGNORECASE)
HOME_ENV = "SCHEMAROUTER_HOME"
_SECRET_ENV = {"llm": "SCHEMAROUTER_LLM_API_KEY"}

_explicit: Path | None = None
_cache: dict[tuple[str, int], dict[str, dict[str, Any]]] = {}


def home() -> Path:
    """The data directory (``SCHEMAROUTER_HOME``, else the user data directory): the default registry,
    the default config file and the response cache live here."""
    configured = os.environ.get(HOME_ENV)
    if configured:
        return Path(configured).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("schemarouter", appauthor=False))


def use_file(path: str | Path | None) -> None:
    """Make ``path`` (``--config``) the config file of this process; None goes back to the default."""
    global _explicit
    _explicit = Path(path).expanduser() if path else None


def config_path() -> tuple[Path, str] | None:
    """The config file in effect and what chose it, or None when there is none."""
    if _explicit is not None:
        return _explicit, "--config"
    configured = os.environ.get(CONFIG_ENV)
    if configured:
        return Path(configured).expanduser(), CONFIG_ENV
    default = home() / FILE_NAME
    return (default, "the data directory") if default.exists() else None


def load() -> dict[str, dict[str, Any]]:
    """The checked contents of the config file in effect ({} without one); ConfigError if unusable."""
    found = config_path()
    if found is None:
        return {}
    path, chosen_by = found
    try:
        stat = path.stat()
    except OSError:
        raise ConfigError(f"config file {path} (from {chosen_by}) does not exist") from None
    if path.is_dir():
        raise ConfigError(f"config file {path} (from {chosen_by}) is a directory, not a TOML file")
    cache_key = (str(path), stat.st_mtime_ns)
    if cache_key not in _cache:
        _cache.clear()
        _cache[cache_key] = read_file(path)
    return _cache[cache_key]


def read_file(path: Path) -> dict[str, dict[str, Any]]:
    """Parse and check one config file; every problem is one line naming file, line and key."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) else "not UTF-8 text"
        raise ConfigError(f"cannot read config file {path}: {reason}") from None
    lines = text.splitlines()
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(_syntax_message(path, lines, err)) from None
    checked: dict[str, dict[str, Any]] = {}
    for section, table in raw.items():
        if not isinstance(table, dict):
            _secret_guard(path, lines, None, section)
            owner = next((s for s, keys in KEYS.items() if section in keys), None)
            hint = f"; put it under [{owner}]" if owner else f"; known sections: {', '.join(f'[{s}]' for s in KEYS)}"
            raise ConfigError(f"{_where(path, lines, None, section)}: key {section!r} is outside any [section]{hint}")
        if section not in KEYS:
            raise ConfigError(
                f"{_where(path, lines, section, None)}: unknown section [{section}]{_suggest(section, KEYS)}; "
                f"known: {', '.join(f'[{s}]' for s in KEYS)}"
            )
        checked[section] = {}
        for key, value in table.items():
            _secret_guard(path, lines, section, key)
            known = KEYS[section]
            if key not in known:
                raise ConfigError(
                    f"{_where(path, lines, section, key)}: unknown key {key!r} in [{section}]{_suggest(key, known)}; "
                    f"known: {', '.join(known)}"
                )
            try:
                checked[section][key] = known[key].check(value)
            except (ValueError, TypeError) as err:
                raise ConfigError(f"{_where(path, lines, section, key)}: [{section}] {key} {err}") from None
            if known[key].check in (_url, _cache_backend) and _has_password(checked[section][key]):
                raise ConfigError(
                    f"{_where(path, lines, section, key)}: [{section}] {key} carries a password; the config file "
                    f"never holds one: set {known[key].env} in the environment instead"
                )
    return checked


def setting(
    section: str, key: str, env: str | None = None, default: Any = None,
    environ: Mapping[str, str] | None = None,
) -> Any:
    """The value of one setting: ``env`` (when set and not empty), else the config file, else ``default``.

    A command-line option wins over all three: callers use it instead of calling this. An
    environment value is checked like a file value, so ``SCHEMAROUTER_TIMEOUT=abc`` is a
    one-line error naming the variable.
    """
    spec = KEYS.get(section, {}).get(key)
    if spec is None:
        raise KeyError(f"[{section}] {key} is not a known config key")
    variables = environ if environ is not None else os.environ
    name = env if env is not None else spec.env
    raw = variables.get(name) if name else None
    if raw is not None and raw.strip() != "":
        try:
            return spec.check(raw)
        except (ValueError, TypeError) as err:
            raise ConfigError(f"environment variable {name}: {err}") from None
    value = load().get(section, {}).get(key)
    return default if value is None else value


def origin(section: str, key: str, environ: Mapping[str, str] | None = None) -> str:
    """Where :func:`setting` takes a value from now: the variable, the file, or the default."""
    variables = environ if environ is not None else os.environ
    name = KEYS[section][key].env
    if name and (variables.get(name) or "").strip():
        return f"environment {name}"
    if key in load().get(section, {}):
        found = config_path()
        return f"config file {found[0]}" if found else "config file"
    return "default"


def _secret_guard(path: Path, lines: list[str], section: str | None, key: str) -> None:
    if not _SECRET.search(key):
        return
    variable = _SECRET_ENV.get(section or "", "the environment variable the source or service names")
    where = _where(path, lines, section, key)
    label = f"[{section}] {key}" if section else key
    raise ConfigError(
        f"{where}: {label} looks like a key or secret; the config file never holds one: set {variable} "
        f"in the environment instead (and remove the line)"
    )


def _has_password(url: str) -> bool:
    from urllib.parse import urlsplit

    try:
        return bool(urlsplit(url).password)
    except ValueError:
        return False


def _suggest(name: str, known: Mapping[str, Any]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


_HEADER = re.compile(r"^\s*\[\s*([A-Za-z0-9_\-\"'. ]+?)\s*\]\s*(#.*)?$")
_ASSIGN = re.compile(r"^\s*([A-Za-z0-9_\-\"'.]+)\s*=")


def _line_of(lines: list[str], section: str | None, key: str | None) -> int | None:
    """The 1-based line of ``key`` in ``[section]`` (or of the section header), found by a plain scan."""
    current: str | None = None
    for number, line in enumerate(lines, 1):
        header = _HEADER.match(line)
        if header:
            current = header.group(1).strip("\"'")
            if key is None and current == section:
                return number
            continue
        assign = _ASSIGN.match(line)
        if assign and key is not None and current == section and assign.group(1).strip("\"'") == key:
            return number
    return None


def _where(path: Path, lines: list[str], section: str | None, key: str | None) -> str:
    number = _line_of(lines, section, key)
    return f"{path}, line {number}" if number else str(path)


def _syntax_message(path: Path, lines: list[str], err: tomllib.TOMLDecodeError) -> str:
    # tomllib reports "... (at line L, column C)"; name the key on that line when there is one.
    message = str(err)
    found = re.search(r"\(at line (\d+), column \d+\)", message)
    problem = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", message)
    if not found:
        return f"{path}: invalid TOML: {problem}"
    number = int(found.group(1))
    line = lines[number - 1] if 0 < number <= len(lines) else ""
    assign = _ASSIGN.match(line)
    key = f", key {assign.group(1)!r}" if assign else ""
    return f"{path}, line {number}{key}: invalid TOML: {problem}"
