"""The OpenDART adapter against recorded Samsung Electronics company and account responses."""

from __future__ import annotations

import pytest
from schemarouter_dart.adapter import DartAdapter, normalise, normalise_english

from schemarouter.execution.testing import cassette_dir, run_step, vcr_config  # noqa: F401

COMPANY = ["corp_name", "stock_code", "ceo_nm", "induty_code"]
ACCOUNTS = ["fs_div", "sj_div", "account_nm", "thstrm_amount", "frmtrm_amount"]


@pytest.fixture
def vcr_cassette_dir() -> str:
    return cassette_dir("dart")


@pytest.mark.vcr("company_corp_code_00126380.yaml")
def test_company_by_code() -> None:
    step = run_step("dart", "company", {"corp_code": "00126380"}, COMPANY)
    assert step.ok, step.error
    values = step.records[0].values
    assert step.records[0].record_id == "00126380"
    assert values["stock_code"].value == "005930" and values["corp_name"].value == "삼성전자(주)"
    assert values["ceo_nm"].source_type == "regulatory"
    assert "crtfc_key=REDACTED" in (step.request or "")


@pytest.mark.vcr("corp_code_zip.yaml", "company_corp_code_00126380.yaml")
def test_corp_name_is_resolved_through_corp_code_zip() -> None:
    from schemarouter.execution.testing import installed

    installed()[1]["dart"]._corp_codes = None  # force the download inside this cassette
    step = run_step("dart", "company", {"corp_name": "삼성전자"}, COMPANY)
    assert step.ok, step.error
    assert step.records[0].record_id == "00126380"
    english = run_step("dart", "company", {"corp_name": "Samsung Electronics"}, COMPANY)
    assert english.ok and english.records[0].record_id == "00126380"


@pytest.mark.vcr("fnltt_00126380_2023_11011.yaml")
def test_krw_amounts_with_separators_become_numbers() -> None:
    params = {"corp_code": "00126380", "bsns_year": "2023", "reprt_code": "11011"}
    step = run_step("dart", "financial_statement", params, ACCOUNTS)
    assert step.ok, step.error
    values = step.records[0].values
    assert values["thstrm_amount"].value == 195_936_557_000_000 and values["thstrm_amount"].unit == "KRW"
    assert values["account_nm"].value == "유동자산" and values["fs_div"].value == "CFS"


@pytest.mark.vcr("fnltt_no_data_013.yaml")
def test_status_013_is_no_records() -> None:
    params = {"corp_code": "00126380", "bsns_year": "2014", "reprt_code": "11011"}
    step = run_step("dart", "financial_statement", params, ["account_nm"])
    assert step.error is not None and step.error.kind == "no_records"


@pytest.mark.vcr("company_limit_020.yaml")
def test_status_020_is_rate_limited() -> None:
    step = run_step("dart", "company", {"corp_code": "00164779"}, COMPANY)
    assert step.error is not None and step.error.kind == "rate_limited"


@pytest.mark.vcr("company_bad_key_010.yaml")
def test_status_010_names_the_key_problem() -> None:
    step = run_step("dart", "company", {"corp_code": "99999999"}, COMPANY)
    assert step.error is not None and step.error.kind == "http_status" and "unregistered API key" in step.error.message


def test_missing_key_names_the_variable() -> None:
    step = run_step("dart", "company", {"corp_code": "00126380"}, COMPANY, env={})
    assert step.error is not None and "DART_API_KEY" in step.error.message


def test_names_are_normalised() -> None:
    assert normalise("삼성전자(주)") == normalise("삼성 전자") == "삼성전자"
    assert normalise_english("SAMSUNG ELECTRONICS CO,.LTD") == normalise_english("Samsung Electronics")
    assert DartAdapter().auth_required
