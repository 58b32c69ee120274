"""Cassettes for dart (see ../dart/README.md for provenance)."""

from __future__ import annotations

import io
import zipfile

from cassettelib import REFERENCE, adapter_request, interaction, write

COMPANY = "dart/opendart_company_json_corp_code_00126380_samsung.json"
FNLTT = "dart/opendart_fnlttSinglAcnt_json_samsung_2023_11011_one_item_excerpt.json"
CORPCODE_XML = """<?xml version="1.0" encoding="UTF-8"?>
<result>
    <list>
        <corp_code>00126380</corp_code>
        <corp_name>삼성전자</corp_name>
        <corp_eng_name>SAMSUNG ELECTRONICS CO,.LTD</corp_eng_name>
        <stock_code>005930</stock_code>
        <modify_date>20250401</modify_date>
    </list>
    <list>
        <corp_code>00164779</corp_code>
        <corp_name>SK하이닉스</corp_name>
        <corp_eng_name>SK hynix Inc.</corp_eng_name>
        <stock_code>000660</stock_code>
        <modify_date>20250401</modify_date>
    </list>
</result>
"""


def corp_code_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("CORPCODE.xml", CORPCODE_XML)
    return buffer.getvalue()


def main() -> None:
    company = (REFERENCE / COMPANY).read_text(encoding="utf-8")
    fnltt = (REFERENCE / FNLTT).read_text(encoding="utf-8")
    fields = ["corp_name", "stock_code", "ceo_nm", "induty_code"]
    method, uri, _ = adapter_request("dart", "company", {"corp_code": "00126380"}, fields)
    write("dart", "company_corp_code_00126380.yaml", [interaction(method, uri, company)])
    write("dart", "corp_code_zip.yaml", [interaction("GET", "https://opendart.fss.or.kr/api/corpCode.xml",
                                                     corp_code_zip(), content_type="application/x-msdownload")])
    fs_params = {"corp_code": "00126380", "bsns_year": "2023", "reprt_code": "11011"}
    method, uri, _ = adapter_request("dart", "financial_statement", fs_params,
                                     ["fs_div", "sj_div", "account_nm", "thstrm_amount", "frmtrm_amount"])
    write("dart", "fnltt_00126380_2023_11011.yaml", [interaction(method, uri, fnltt)])
    method, uri, _ = adapter_request("dart", "financial_statement", {**fs_params, "bsns_year": "2014"}, ["account_nm"])
    write("dart", "fnltt_no_data_013.yaml", [interaction(method, uri, {"status": "013", "message": "조회된 데이타가 없습니다."})])
    method, uri, _ = adapter_request("dart", "company", {"corp_code": "00164779"}, fields)
    write("dart", "company_limit_020.yaml", [interaction(method, uri, {"status": "020", "message": "요청 제한을 초과하였습니다."})])
    method, uri, _ = adapter_request("dart", "company", {"corp_code": "99999999"}, fields)
    write("dart", "company_bad_key_010.yaml", [interaction(method, uri, {"status": "010", "message": "등록되지 않은 키입니다."})])


if __name__ == "__main__":
    main()
