"""Currencies a question writes are read as ISO 4217 codes, and a currency parameter takes the one its
name says: converted from ("base_currency", "from_currency") or into ("target_currency", "to")."""

from __future__ import annotations

import pytest

from schemarouter.models import Parameter
from schemarouter.router.values import open_values
from schemarouter.understand.currencies import currencies, money_amounts
from tests.open_world_support import read_question


@pytest.mark.parametrize(("text", "codes"), [
    ("The exchange rate from British pounds to Japanese yen", ["GBP", "JPY"]),
    ("I have 100 euro. How much is it in USD?", ["EUR", "USD"]),
    ("Convert 200 Canadian dollars to US dollars", ["CAD", "USD"]),  # the longer form first
    ("How much will 20000 Japanese Yen be in United States Dollar?", ["JPY", "USD"]),
    ("Rand Paul bought 5 pounds of rice", []),  # a name and a weight
    ("Learn PHP and usd files", []),  # no code in lower case, no acronym of another kind
])
def test_currencies_are_read_as_their_codes(text: str, codes: list[str]) -> None:
    assert [c.code for c in currencies(text)] == codes


BASE = Parameter(name="base_currency", type="string", required=True, description="The currency to convert from.")
TARGET = Parameter(name="target_currency", type="string", required=True, description="The currency to convert to.")


@pytest.mark.parametrize(("question", "want"), [
    ("The exchange rate from British pounds to Japanese yen", {"base_currency": "GBP", "target_currency": "JPY"}),
    ("I have 100 euro. How much is it in USD?", {"base_currency": "EUR", "target_currency": "USD"}),
])
def test_a_currency_parameter_takes_the_currency_its_name_says(question: str, want: dict[str, str]) -> None:
    assert open_values([BASE, TARGET], read_question(question), "/convert").values == want


def test_a_currency_parameter_with_an_enum_takes_only_a_member() -> None:
    listed = Parameter(name="currency", type="string", enum=["USD", "EUR"])
    assert open_values([listed], read_question("Net worth of Messi in euro"), "/worth").values == {"currency": "EUR"}
    assert open_values([listed], read_question("Net worth of Messi in yen"), "/worth").values == {}


# a converter's ends named for nothing but the direction: its description says what they take
TO = Parameter(name="to", type="string", required=True, description="i.e: JPY")
FROM = Parameter(name="from", type="string", required=True, description="Currency from which you are converting.")
AMOUNT = Parameter(name="amount", type="number", description="(Optional) Amount value in From Currency.")


def test_a_direction_its_description_says_is_a_currency_takes_one_and_an_amount_takes_the_money() -> None:
    got = open_values([TO, FROM, AMOUNT], read_question("Can you convert 1000 USD to Japanese yen?"), "/convert")
    assert got.values == {"to": "JPY", "from": "USD", "amount": 1000}


def test_a_direction_described_as_something_else_takes_no_currency() -> None:
    to = Parameter(name="to", type="string", required=True, description="Destination city")
    got = open_values([to], read_question("A flight to Tokyo paid in USD"), "/flights")
    assert got.values.get("to") != "USD"


@pytest.mark.parametrize(("text", "amounts"), [
    ("convert 1000 USD to Japanese yen", ("1000",)),
    ("How much will 20,000 Japanese Yen be in USD?", ("20000",)),
    ("a house of $200,000 and a fee of $1.5", ("200000", "1.5")),
    ("Rand Paul bought 5 pounds of rice", ()),  # a weight, not money
    ("the 3 currencies I hold", ()),
])
def test_amounts_of_money_are_the_numbers_written_with_a_currency(text: str, amounts: tuple[str, ...]) -> None:
    assert money_amounts(text) == amounts
