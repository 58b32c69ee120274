"""The TOML config file: where it is found, precedence (option > variable > file > default), bad files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from schemarouter import config
from schemarouter.config import ConfigError, setting
from schemarouter.llm import LLMConfig
from schemarouter.registry.database import default_url
from tests.sr_cli import run_main


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data directory of its own, no config variables, and no --config left over from another test."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("SCHEMAROUTER_HOME", str(home))
    for name in ("SCHEMAROUTER_CONFIG", "SCHEMAROUTER_DATABASE_URL", "SCHEMAROUTER_LLM_URL", "SCHEMAROUTER_LLM_MODEL",
                 "SCHEMAROUTER_TIMEOUT", "SCHEMAROUTER_STEP_DEADLINE", "SCHEMAROUTER_CACHE", "SCHEMAROUTER_CACHE_DIR",
                 "SCHEMAROUTER_CACHE_TTL", "OPENAI_BASE_URL", "OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)
    config.use_file(None)
    yield home
    config.use_file(None)


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_the_file_in_the_data_directory_is_read_and_checked(isolated: Path) -> None:
    _write(isolated / "config.toml", """
[registry]
url = "sqlite:///elsewhere.db"

[execution]
timeout = 12
step_deadline = "90"

[cache]
enabled = false
dir = "~/sr-cache"
default_ttl = 3600
""")
    assert setting("registry", "url") == "sqlite:///elsewhere.db"
    assert setting("execution", "timeout") == 12.0
    assert setting("execution", "step_deadline") == 90.0, "a number given as a string is accepted and converted"
    assert setting("cache", "enabled") is False
    assert setting("cache", "dir") == str(Path("~/sr-cache").expanduser())
    assert setting("cache", "default_ttl") == 3600
    assert setting("llm", "model", default="fallback-model") == "fallback-model"
    assert default_url() == "sqlite:///elsewhere.db", "the registry URL comes from the file"


def test_environment_wins_over_the_file_and_is_checked_too(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(isolated / "config.toml", '[execution]\ntimeout = 12\n[registry]\nurl = "sqlite:///file.db"\n')
    monkeypatch.setenv("SCHEMAROUTER_TIMEOUT", "3.5")
    monkeypatch.setenv("SCHEMAROUTER_DATABASE_URL", "sqlite:///env.db")
    assert setting("execution", "timeout") == 3.5
    assert default_url() == "sqlite:///env.db"
    assert config.origin("execution", "timeout") == "environment SCHEMAROUTER_TIMEOUT"
    monkeypatch.setenv("SCHEMAROUTER_TIMEOUT", "soon")
    with pytest.raises(ConfigError, match="environment variable SCHEMAROUTER_TIMEOUT: must be a number of seconds"):
        setting("execution", "timeout")
    monkeypatch.setenv("SCHEMAROUTER_TIMEOUT", "")
    assert setting("execution", "timeout") == 12.0, "an empty variable counts as unset"


def test_an_explicit_path_and_the_variable_choose_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _write(tmp_path / "a.toml", '[llm]\nmodel = "from-variable"\n')
    second = _write(tmp_path / "b.toml", '[llm]\nmodel = "from-option"\n')
    monkeypatch.setenv("SCHEMAROUTER_CONFIG", str(first))
    assert setting("llm", "model") == "from-variable"
    config.use_file(second)
    assert setting("llm", "model") == "from-option", "--config wins over SCHEMAROUTER_CONFIG"
    config.use_file(tmp_path / "missing.toml")
    with pytest.raises(ConfigError, match=r"missing.toml \(from --config\) does not exist"):
        config.load()


def test_the_response_cache_reads_the_file_below_its_variables(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from schemarouter.execution.cache import cache_settings

    _write(isolated / "config.toml", '[cache]\nenabled = false\ndefault_ttl = 77\ndir = "~/sr-cache"\n')
    settings = cache_settings()
    assert (settings.enabled, settings.default_ttl, settings.dir) == (False, 77, Path("~/sr-cache").expanduser())
    monkeypatch.setenv("SCHEMAROUTER_CACHE_TTL", "5")
    assert cache_settings().default_ttl == 5


def test_runs_take_their_timeouts_from_the_file(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from schemarouter.api import Router
    from schemarouter.execution import executor as executor_module
    from schemarouter.plan import Plan

    seen: dict[str, object] = {}
    real_init = executor_module.Executor.__init__

    def spy(self: object, *args: object, **kwargs: object) -> None:
        seen.update(kwargs)
        real_init(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(executor_module.Executor, "__init__", spy)
    _write(isolated / "config.toml", "[execution]\ntimeout = 7\nstep_deadline = 40\n")
    from schemarouter.declarations import Declarations
    from schemarouter.graph import build_graph

    router = Router(build_graph(Declarations(), None))  # no source: the run has no step to make
    router.run(Plan(query="q", registry_fingerprint=None), cache=False)
    assert seen["config"].timeout_s == 7.0 and seen["step_timeout_s"] == 40.0  # type: ignore[attr-defined]
    monkeypatch.setenv("SCHEMAROUTER_TIMEOUT", "3")
    router.run(Plan(query="q", registry_fingerprint=None), cache=False)
    assert seen["config"].timeout_s == 3.0  # type: ignore[attr-defined]


def test_the_llm_endpoint_comes_from_the_file_below_the_variables(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write(isolated / "config.toml", '[llm]\nurl = "http://127.0.0.1:9/v1/"\nmodel = "local-model"\n')
    llm = LLMConfig.from_env()
    assert llm is not None and (llm.base_url, llm.model) == ("http://127.0.0.1:9/v1", "local-model")
    monkeypatch.setenv("SCHEMAROUTER_LLM_MODEL", "env-model")
    llm = LLMConfig.from_env(model=None)
    assert llm is not None and llm.model == "env-model"
    assert LLMConfig.from_env({}) is None, "an explicit environment mapping does not read the file"


@pytest.mark.parametrize(("text", "expected"), [
    ('[execution]\ntimeout = 12\nstep_deadline = \n', r"config.toml, line 3, key 'step_deadline': invalid TOML"),
    ('[execution]\ntimout = 12\n', r"config.toml, line 2: unknown key 'timout' in \[execution\] \(did you mean 'timeout'\?\)"),
    ('[excution]\ntimeout = 12\n', r"config.toml, line 1: unknown section \[excution\] \(did you mean 'execution'\?\)"),
    ('timeout = 12\n', r"config.toml, line 1: key 'timeout' is outside any \[section\]; put it under \[execution\]"),
    ('[cache]\nenabled = "maybe"\n', r"config.toml, line 2: \[cache\] enabled must be true or false"),
    ('[execution]\ntimeout = -1\n', r"config.toml, line 2: \[execution\] timeout must be a positive number of seconds"),
])
def test_bad_files_are_one_line_naming_file_line_and_key(isolated: Path, text: str, expected: str) -> None:
    _write(isolated / "config.toml", text)
    with pytest.raises(ConfigError, match=expected) as caught:
        config.load()
    assert "\n" not in str(caught.value)


def test_a_key_in_the_file_is_refused_and_never_echoed(isolated: Path) -> None:
    _write(isolated / "config.toml", '[llm]\nurl = "http://x/v1"\napi_key = "sk-very-secret-value"\n')
    with pytest.raises(ConfigError) as caught:
        config.load()
    message = str(caught.value)
    assert "line 3" in message and "SCHEMAROUTER_LLM_API_KEY" in message
    assert "sk-very-secret-value" not in message


def test_a_password_in_a_url_is_refused_too(isolated: Path) -> None:
    _write(isolated / "config.toml", '[registry]\nurl = "postgresql+psycopg://me:hunter2@db.example/reg"\n')
    with pytest.raises(ConfigError, match=r"line 2: \[registry\] url carries a password.*SCHEMAROUTER_DATABASE_URL") as caught:
        config.load()
    assert "hunter2" not in str(caught.value)


def test_the_cli_reports_a_malformed_file_once_without_a_traceback(
    isolated: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    bad = _write(tmp_path / "bad.toml", "[registry\nurl = 1\n")
    ran = run_main(capsys, monkeypatch, "--config", str(bad), "registry", "list")
    assert ran.code == 1
    assert ran.err.startswith(f"Error: {bad}, line 1") and "invalid TOML" in ran.err
    assert "Traceback" not in ran.err and ran.err.count("\n") == 1


def test_the_cli_uses_the_registry_url_of_the_file(
    isolated: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    target = tmp_path / "chosen" / "registry.db"
    _write(isolated / "config.toml", f'[registry]\nurl = "sqlite:///{target}"\n')
    ran = run_main(capsys, monkeypatch, "registry", "stats")
    assert ran.code == 1 and "no registry at" in ran.err and str(target) in ran.err, (
        "a read-only command on the file's URL says the file is missing instead of creating it")
    assert not target.exists()


def test_a_mistyped_setting_is_warned_about_naming_the_right_one(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCHEMAROUTER_REGISTRY_URL", "sqlite:///elsewhere.db")  # the registry is the database
    monkeypatch.setenv("SCHEMAROUTER_TIMEOUTS", "3")
    monkeypatch.setenv("SCHEMAROUTER_LAB_TOKEN", "a source's key may be called anything")
    ran = run_main(capsys, monkeypatch, "registry", "list")
    warnings = [line for line in ran.err.splitlines() if line.startswith("warning: SCHEMAROUTER_")]
    assert warnings == [
        "warning: SCHEMAROUTER_REGISTRY_URL is not a schemarouter setting and is ignored; "
        "did you mean SCHEMAROUTER_DATABASE_URL?",
        "warning: SCHEMAROUTER_TIMEOUTS is not a schemarouter setting and is ignored; did you mean SCHEMAROUTER_TIMEOUT?",
    ]


def test_every_variable_the_code_reads_is_a_known_setting() -> None:
    # the list the warning checks against must not fall behind the code
    root = Path(config.__file__).resolve().parents[1]
    used: set[str] = set()
    for path in [*(root / "schemarouter").rglob("*.py"), *(root / "plugins").rglob("*.py")]:
        used |= set(re.findall(r"\bSCHEMAROUTER_[A-Z0-9_]*[A-Z0-9]\b", path.read_text(encoding="utf-8")))
    assert used, "the scan found the package"
    assert used <= config.ENVIRONMENT, sorted(used - config.ENVIRONMENT)
