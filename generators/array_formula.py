"""array_formula (direct translation, EN + KO): spreadsheet aggregation over three joined tables.

Three pipe-separated tables (Products, Orders, Customers) and one question that asks for an integer or
a label obtained by joining, filtering, grouping, ranking and aggregating. EN and KO render the same
latent instance (item-paired; the KO prompt uses Korean headers and values).

Instance schema (JSON, identical for EN and KO)::

    {"gen": "easy"|"medium"|"hard",              # generation difficulty (table size, distractors)
     "problem_type": "lookup"|"conditional"|"array"|"multi",
     "template": "L-m5", "params": {"C": "Fruit", "R": "Seoul", "Q": 2, "O": order index,
                "G": "Silver", "t": 20},           # whichever the template uses
     "answer_type": "number"|"text",
     "columns": {"products": [...], "orders": [...], "customers": [...]},   # printed columns
     "products":  [{"id", "name": [en, ko], "category", "price", "stock", "discount",
                    "supplier", "warehouse", "tax_rate", "rating"}],        # distractors if printed
     "orders":    [{"order_id", "product": product id, "region", "quantity", "quarter": 1..4,
                    "customer": customer index (1-based), "channel", "priority", "shipping_fee",
                    "promo_rate"}],
     "customers": [{"customer_id", "name": [en, ko], "membership", "join_year", "region",
                    "segment", "age_group", "loyalty_points"}]}

Codes are the EN values (``Fruit``, ``Seoul``, ``Gold``); the KO labels come from
:mod:`generators._array_formula_data`. The template catalogue follows the reference's (ids as in the
spec, section 1.3); the conventions of spec 1.2 are stated in every prompt.

Levers (reference code at HEAD): label tier -> generation difficulty mixture easy 18 % gen-easy /
82 % gen-medium, medium 50 % gen-medium / 50 % gen-hard, hard 100 % gen-hard; table sizes products /
orders / customers gen-easy 24-32 / 35-50 / 10-14 (6 categories, 6 regions, no distractor columns),
gen-medium 55-65 / 120-170 / 18-20 (8 / 8, 5 distractor columns), gen-hard 80-85 / 220-300 / 20 (8 / 8,
11 distractor columns); template weight = base weight (1 or 2) x the reference multipliers (weight-1 x 0.75 /
0.40 / 0.20, weight-2 x 1.80 / 3.60 / 5.00 for gen-easy / medium / hard; numeric x 1.05 / 1.25 / 1.40,
text x 0.90 / 0.45 / 0.30); problem type uniform over the four (the reference used blocks of 25 items).

Departures from the reference (and why):
- Ranking ties: every ranking step used by a template must be strict at the positions it uses
  (top, 2nd, 3rd, top-3 cut, ...); tied instances are rejected and resampled. The prompt says so.
  L-h1 (rank by number of distinct categories, where ties are the rule: 8 categories, 12+ orders per
  customer; the reference was ambiguous in 4/4 items) states a tie rule instead: equal counts are
  ordered by higher spending (and a tie on both is still rejected). A-m2 / M-m2 ask for the revenue
  value of the 1st / 2nd region, which a tie cannot change, so they need no strictness.
- Medians are defined in the prompt: where the median is printed (C-e6, C-m4, A-e7) it is the mean of the
  two middle values, truncated; where it is not printed (A-h4, M-h2) the prompt defines it as the upper
  of the two middle values for an even count. A-e7 prints the median in both languages (the reference
  printed it only in KO).
- KO wording states exactly what is computed (M-h5: "as a percentage of that customer's total
  spending"; M-h4: "top two spenders over all orders").
- The answer is always a string; ``answer_type`` in the instance says number or text. A membership
  answer of ``None``/``없음`` is rejected (it reads like "no answer").
- Targets (C, R, Q, O, G, t) are drawn from sorted lists, so generation is reproducible and EN == KO.
- Catalogue coverage: all 78 templates of the reference catalogue (spec 1.3), with the reference
  weights, so the selection probabilities per (problem type, generation difficulty) branch equal the
  reference's (spec section 3). Text answers: category, region (Orders or Customers table, as the
  question says), membership, quarter label (``Q1`` / ``1분기``) or customer name (L-m2).

Verification (``check``): the three tables are parsed back from the question text (headers and KO
labels mapped to codes) and compared with the instance; then the answer is recomputed from the parsed
tables by a second, separately written implementation (exact ``Fraction`` arithmetic, joins by product
name and customer id) that enumerates every tie-break at each ranking step and requires that all of
them give the same answer, equal to the gold.

Scoring follows the reference judge (spec section 4): payload of the last labelled line, else after the
first ``Answer:``, else the last non-empty line; numbers: commas removed, first number, |diff| < 0.001;
text: quotes stripped, case-insensitive equality. Deliberate leniency over the reference: Markdown
emphasis and a trailing period around a text answer are ignored, and a numeric payload that is the
gold followed by a unit or a percent sign still counts (the reference already accepts those).
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from . import _array_formula_data as V
from .base import Puzzle, Reject
from .extract import last_label_payload

GEN_SIZES = {
    "easy": {
        "products": [24, 32],
        "orders": [35, 50],
        "customers": [10, 14],
        "categories": 6,
        "regions": 6,
        "distractors": 0,
    },
    "medium": {
        "products": [55, 65],
        "orders": [120, 170],
        "customers": [18, 20],
        "categories": 8,
        "regions": 8,
        "distractors": 1,
    },
    "hard": {
        "products": [80, 85],
        "orders": [220, 300],
        "customers": [20, 20],
        "categories": 8,
        "regions": 8,
        "distractors": 2,
    },
}
MULT_W1 = {"easy": 0.75, "medium": 0.40, "hard": 0.20}
MULT_W2 = {"easy": 1.80, "medium": 3.60, "hard": 5.00}
MULT_NUM = {"easy": 1.05, "medium": 1.25, "hard": 1.40}
MULT_TEXT = {"easy": 0.90, "medium": 0.45, "hard": 0.30}
PTYPES = ("lookup", "conditional", "array", "multi")

# tid -> (gen, problem type, base weight, answer type, params needed)
CATALOGUE = {
    "L-e6": ("easy", "lookup", 2, "number", "C"),
    "L-e7": ("easy", "lookup", 2, "number", ""),
    "L-e8": ("easy", "lookup", 2, "number", ""),
    "C-e6": ("easy", "conditional", 2, "number", ""),
    "C-e7": ("easy", "conditional", 2, "number", ""),
    "C-e8": ("easy", "conditional", 2, "number", ""),
    "A-e5": ("easy", "array", 2, "number", "R"),
    "A-e6": ("easy", "array", 2, "number", ""),
    "A-e7": ("easy", "array", 2, "number", ""),
    "M-e6": ("easy", "multi", 2, "number", "CQ"),
    "M-e7": ("easy", "multi", 2, "number", "R"),
    "M-e8": ("easy", "multi", 2, "number", "R"),
    "L-m5": ("medium", "lookup", 2, "number", ""),
    "L-m6": ("medium", "lookup", 2, "number", ""),
    "C-m5": ("medium", "conditional", 2, "number", ""),
    "C-m6": ("medium", "conditional", 2, "number", ""),
    "A-m1": ("medium", "array", 2, "number", ""),
    "A-m5": ("medium", "array", 2, "number", ""),
    "A-m6": ("medium", "array", 2, "number", ""),
    "M-m4": ("medium", "multi", 2, "text", ""),
    "M-m5": ("medium", "multi", 2, "number", ""),
    "M-m6": ("medium", "multi", 2, "number", "R"),
    "L-h1": ("hard", "lookup", 1, "text", ""),
    "L-h2": ("hard", "lookup", 1, "text", ""),
    "L-h4": ("hard", "lookup", 1, "number", ""),
    "L-h5": ("hard", "lookup", 1, "text", ""),
    "C-h1": ("hard", "conditional", 1, "number", ""),
    "C-h2": ("hard", "conditional", 1, "number", ""),
    "C-h3": ("hard", "conditional", 1, "number", ""),
    "C-h4": ("hard", "conditional", 1, "number", ""),
    "C-h5": ("hard", "conditional", 1, "number", ""),
    "C-h6": ("hard", "conditional", 1, "number", ""),
    "A-h2": ("hard", "array", 2, "number", ""),
    "A-h3": ("hard", "array", 2, "number", ""),
    "A-h4": ("hard", "array", 2, "number", ""),
    "A-h5": ("hard", "array", 2, "number", ""),
    "M-h2": ("hard", "multi", 2, "number", ""),
    "M-h4": ("hard", "multi", 2, "number", ""),
    "M-h5": ("hard", "multi", 2, "number", ""),
    "M-h6": ("hard", "multi", 2, "number", ""),
    "L-e1": ("easy", "lookup", 1, "number", "O"),
    "L-e2": ("easy", "lookup", 1, "text", ""),
    "L-e3": ("easy", "lookup", 1, "number", "C"),
    "L-e4": ("easy", "lookup", 1, "number", "C"),
    "L-e5": ("easy", "lookup", 1, "text", "O"),
    "C-e1": ("easy", "conditional", 1, "number", "C"),
    "C-e2": ("easy", "conditional", 1, "number", "C"),
    "C-e3": ("easy", "conditional", 1, "number", "C"),
    "C-e4": ("easy", "conditional", 1, "number", "Q"),
    "C-e5": ("easy", "conditional", 1, "number", ""),
    "A-e1": ("easy", "array", 1, "number", ""),
    "A-e2": ("easy", "array", 1, "number", ""),
    "A-e3": ("easy", "array", 1, "number", "C"),
    "A-e4": ("easy", "array", 1, "number", "t"),
    "M-e1": ("easy", "multi", 1, "number", "RC"),
    "M-e2": ("easy", "multi", 1, "number", "RQ"),
    "M-e3": ("easy", "multi", 1, "number", "R"),
    "M-e4": ("easy", "multi", 1, "number", ""),
    "M-e5": ("easy", "multi", 1, "number", "CR"),
    "L-m1": ("medium", "lookup", 1, "text", ""),
    "L-m2": ("medium", "lookup", 1, "text", "R"),
    "L-m3": ("medium", "lookup", 1, "number", "G"),
    "L-m4": ("medium", "lookup", 1, "number", "Q"),
    "C-m1": ("medium", "conditional", 1, "number", "C"),
    "C-m2": ("medium", "conditional", 1, "number", ""),
    "C-m3": ("medium", "conditional", 1, "number", "G"),
    "C-m4": ("medium", "conditional", 1, "number", ""),
    "A-m2": ("medium", "array", 1, "number", ""),
    "A-m3": ("medium", "array", 1, "number", ""),
    "A-m4": ("medium", "array", 1, "number", "Q"),
    "M-m1": ("medium", "multi", 1, "text", "C"),
    "M-m2": ("medium", "multi", 1, "number", ""),
    "M-m3": ("medium", "multi", 1, "text", ""),
    "L-h3": ("hard", "lookup", 1, "text", ""),
    "A-h1": ("hard", "array", 1, "number", ""),
    "A-h6": ("hard", "array", 1, "number", ""),
    "M-h1": ("hard", "multi", 1, "number", "R"),
    "M-h3": ("hard", "multi", 1, "number", "C"),
}


def template_weight(tid: str) -> float:
    gen, _pt, w, atype, _p = CATALOGUE[tid]
    mult = MULT_W1[gen] if w == 1 else MULT_W2[gen]
    return w * mult * (MULT_NUM[gen] if atype == "number" else MULT_TEXT[gen])


COLUMNS = {
    "products": [
        ["id", "product", "category", "price", "stock", "discount"],
        ["supplier", "warehouse"],
        ["tax_rate", "rating"],
    ],
    "orders": [
        ["order_id", "product", "region", "quantity", "quarter", "customer_id"],
        ["channel", "priority"],
        ["shipping_fee", "promo_rate"],
    ],
    "customers": [
        ["customer_id", "name", "membership", "join_year", "region"],
        ["segment"],
        ["age_group", "loyalty_points"],
    ],
}
KO_HEADERS = {
    "id": "id",
    "product": "상품명",
    "category": "카테고리",
    "price": "가격",
    "stock": "재고",
    "discount": "할인율",
    "supplier": "공급사",
    "warehouse": "창고",
    "tax_rate": "세율",
    "rating": "평점",
    "order_id": "주문번호",
    "region": "지역",
    "quantity": "수량",
    "quarter": "분기",
    "customer_id": "고객번호",
    "channel": "채널",
    "priority": "우선순위",
    "shipping_fee": "배송비",
    "promo_rate": "프로모션율",
    "name": "이름",
    "membership": "등급",
    "join_year": "가입연도",
    "segment": "세그먼트",
    "age_group": "연령대",
    "loyalty_points": "포인트",
}
TITLES = {
    "en": {"products": "[Products Table]", "orders": "[Orders Table]", "customers": "[Customers Table]"},
    "ko": {"products": "[상품 테이블]", "orders": "[주문 테이블]", "customers": "[고객 테이블]"},
}
_VALUE_MAPS = {
    "category": V.CATEGORIES,
    "region": V.REGIONS,
    "membership": V.MEMBERSHIPS,
    "warehouse": V.WAREHOUSES,
    "channel": V.CHANNELS,
    "priority": V.PRIORITIES,
    "segment": V.SEGMENTS,
    "age_group": V.AGE_GROUPS,
}


# =================================================================================================
# Sampling
# =================================================================================================
def _tables(rng, gen):
    s = GEN_SIZES[gen]
    n_p = rng.randint(*s["products"])
    n_o = rng.randint(*s["orders"])
    n_c = rng.randint(*s["customers"])
    cats = sorted(rng.sample(sorted(V.CATEGORIES), s["categories"]))
    names = rng.sample(range(len(V.PRODUCTS)), n_p)
    products = []
    for i, k in enumerate(names, start=1):
        p = {
            "id": i,
            "name": list(V.PRODUCTS[k]),
            "category": rng.choice(cats),
            "price": 100 * rng.randint(5, 50),
            "stock": rng.randint(10, 200),
            "discount": rng.choice([0, 5, 10, 15, 20]),
            "supplier": f"S-{rng.randint(1, 12):02d}",
            "warehouse": rng.choice(_WAREHOUSES),
            "tax_rate": rng.choice([0, 3, 5, 8, 10]),
            "rating": rng.randint(1, 5),
        }
        products.append(p)
    people = rng.sample(range(len(V.PEOPLE)), n_c)
    cust_regions = sorted(rng.sample(sorted(V.REGIONS), s["regions"]))
    customers = []
    for i, k in enumerate(people, start=1):
        customers.append(
            {
                "customer_id": f"CUST-{i:03d}",
                "name": list(V.PEOPLE[k]),
                "membership": rng.choice(["Gold", "Silver", "Bronze", "None"]),
                "join_year": rng.randint(2018, 2024),
                "region": rng.choice(cust_regions),
                "segment": rng.choice(_SEGMENTS),
                "age_group": rng.choice(_AGE_GROUPS),
                "loyalty_points": rng.randint(0, 5000),
            }
        )
    order_regions = sorted(rng.sample(sorted(V.REGIONS), s["regions"]))
    orders = []
    for i in range(1, n_o + 1):
        orders.append(
            {
                "order_id": f"ORD-{i:03d}",
                "product": rng.randint(1, n_p),
                "region": rng.choice(order_regions),
                "quantity": rng.randint(1, 50),
                "quarter": rng.randint(1, 4),
                "customer": rng.randint(1, n_c),
                "channel": rng.choice(_CHANNELS),
                "priority": rng.choice(["Low", "Normal", "High"]),
                "shipping_fee": 100 * rng.randint(0, 20),
                "promo_rate": rng.choice([0, 5, 10, 15]),
            }
        )
    level = s["distractors"]
    columns = {t: [c for group in COLUMNS[t][: level + 1] for c in group] for t in COLUMNS}

    def trim(rows, t):
        return [{k: v for k, v in r.items() if k not in _ALL_OPTIONAL or k in columns[t]} for r in rows]

    return columns, trim(products, "products"), trim(orders, "orders"), trim(customers, "customers")


_WAREHOUSES = sorted(V.WAREHOUSES)
_SEGMENTS = sorted(V.SEGMENTS)
_AGE_GROUPS = sorted(V.AGE_GROUPS)
_CHANNELS = sorted(V.CHANNELS)
_ALL_OPTIONAL = {c for t in COLUMNS for group in COLUMNS[t][1:] for c in group}


def choose_params(rng, need, products, orders):
    """The template parameters (C category, R order region, Q quarter, O order, G membership, t threshold),
    drawn from sorted lists."""
    params = {}
    if "C" in need:
        params["C"] = rng.choice(sorted({p["category"] for p in products}))
    if "R" in need:
        params["R"] = rng.choice(sorted({o["region"] for o in orders}))
    if "Q" in need:
        params["Q"] = rng.randint(1, 4)
    if "O" in need:
        params["O"] = rng.randint(1, len(orders))
    if "G" in need:
        params["G"] = rng.choice(["Gold", "Silver", "Bronze"])
    if "t" in need:
        params["t"] = rng.choice([15, 20, 25, 30])
    return params


class _Data:
    """The generator's view: joined order records with integer revenue fields."""

    def __init__(self, inst):
        self.P = inst["products"]
        self.C = inst["customers"]
        pid = {p["id"]: p for p in self.P}
        self.J = []
        for o in inst["orders"]:
            p = pid[o["product"]]
            c = self.C[o["customer"] - 1]
            unit = p["price"] * (100 - p["discount"]) // 100
            self.J.append(
                {
                    "pid": p["id"],
                    "cat": p["category"],
                    "price": p["price"],
                    "disc": p["discount"],
                    "stock": p["stock"],
                    "qty": o["quantity"],
                    "region": o["region"],
                    "q": o["quarter"],
                    "cid": o["customer"],
                    "mem": c["membership"],
                    "year": c["join_year"],
                    "rev": p["price"] * o["quantity"],
                    "drev": unit * o["quantity"],
                }
            )


def _group(rows, key, val=None):
    out = {}
    for r in rows:
        k = r[key] if isinstance(key, str) else key(r)
        out[k] = out.get(k, 0) + (1 if val is None else r[val])
    return out


def _ranked(d, strict_upto):
    """Keys sorted by value (desc). Reject unless positions 0..strict_upto are separated from their
    next neighbour (so ranks 1..strict_upto+1 and the cut after them are unambiguous)."""
    items = sorted(d.items(), key=lambda kv: kv[1], reverse=True)
    for i in range(min(strict_upto, len(items) - 1) + 1):
        if i + 1 < len(items) and items[i][1] == items[i + 1][1]:
            raise Reject("tie in a ranking")
    return [k for k, _ in items]


def _top(d):
    if not d:
        raise Reject("empty group")
    return _ranked(d, 0)[0]


def _median_a(values):
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) // 2


def _pct(part, whole):
    if whole == 0:
        raise Reject("zero denominator")
    return part * 100 // whole


def _compute(inst):
    """(value, shown) for the instance's template; value is an int or a label code."""
    D = _Data(inst)
    J, P, C = D.J, D.P, D.C
    prm = inst["params"]
    t = inst["template"]
    shown = {}
    if t == "L-e6":
        v = sum(j["drev"] for j in J if j["cat"] == prm["C"])
    elif t == "L-e7":
        order = _ranked(_group(J, "cat", "qty"), 2)
        top3 = set(order[:3])
        stock = {p["id"]: p["stock"] for p in P if p["category"] in top3}
        best = _top(stock)
        v = next(p["discount"] for p in P if p["id"] == best)
    elif t == "L-e8":
        r = _top(_group(J, "region"))
        v = sum(j["drev"] for j in J if j["region"] == r)
    elif t == "C-e6":
        m = _median_a([j["qty"] for j in J])
        shown["M"] = m
        v = sum(j["rev"] for j in J if j["qty"] > m)
    elif t == "C-e7":
        m = sum(p["price"] for p in P) // len(P)
        shown["M"] = m
        v = sum(p["price"] * (100 - p["discount"]) // 100 * p["stock"] for p in P if p["price"] > m)
    elif t == "C-e8":
        tot, cnt = _group(P, "category", "discount"), _group(P, "category")
        best = _top({c: Fraction(tot[c], cnt[c]) for c in tot})
        v = sum(1 for j in J if j["cat"] == best)
    elif t in ("A-e5", "M-e7"):
        field = "rev" if t == "A-e5" else "drev"
        v = sum(j[field] for j in J if j["region"] == prm["R"])
    elif t == "A-e6":
        v = sum(j["rev"] - j["drev"] for j in J)
    elif t == "A-e7":
        m = _median_a([p["stock"] for p in P])
        shown["M"] = m
        v = sum(j["rev"] for j in J if j["stock"] > m)
    elif t == "M-e6":
        v = sum(1 for j in J if j["cat"] == prm["C"] and j["q"] == prm["Q"])
    elif t == "M-e8":
        m = sum(p["price"] for p in P) // len(P)
        shown["M"] = m
        v = sum(1 for j in J if j["region"] == prm["R"] and j["price"] > m)
    elif t == "L-m5":
        distinct = {}
        for j in J:
            distinct.setdefault(j["cat"], set()).add(j["pid"])
        order = _ranked({c: len(s) for c, s in distinct.items()}, 1)
        if len(order) < 2:
            raise Reject("fewer than two categories")
        v = sum(j["rev"] for j in J if j["cat"] == order[1])
    elif t in ("L-m6", "A-m1"):
        m = sum(j["qty"] for j in J) // len(J)
        shown["M"] = m
        field = "rev" if t == "L-m6" else "drev"
        v = sum(j[field] for j in J if j["qty"] > m)
    elif t == "C-m5":
        q = _top(_group(J, "q"))
        shown["X"] = q
        rows = [j for j in J if j["q"] == q]
        v = _pct(sum(j["rev"] for j in rows if j["mem"] == "Gold"), sum(j["rev"] for j in rows))
    elif t == "C-m6":
        a = sum(j["rev"] for j in J) // sum(j["qty"] for j in J)
        b = sum(p["price"] for p in P) // len(P)
        v = abs(a - b)
    elif t == "A-m5":
        rev = _group(J, "cat", "rev")
        v = max(rev.values()) - min(rev.values())
    elif t == "A-m6":
        d = _group(J, "q", "drev")
        vals = [d.get(q, 0) for q in (1, 2, 3, 4)]
        v = max(vals) - min(vals)
    elif t == "M-m4":
        distinct = {}
        for j in J:
            if j["mem"] == "Gold":
                distinct.setdefault(j["cat"], set()).add(j["pid"])
        v = _top({c: len(s) for c, s in distinct.items()})
    elif t == "M-m5":
        c = _top(_group(J, "cat"))
        v = sum(j["drev"] for j in J if j["cat"] == c)
    elif t == "M-m6":
        rows = [j for j in J if j["region"] == prm["R"]]
        v = sum(1 for j in rows if j["mem"] != "Gold") - sum(1 for j in rows if j["mem"] == "Gold")
    elif t == "L-h1":
        spend = _group(J, "cid", "rev")
        mean = Fraction(sum(spend.values()), len(spend))
        above = [c for c in spend if spend[c] > mean]
        cats = {}
        for j in J:
            if j["cid"] in above:
                cats.setdefault(j["cid"], set()).add(j["cat"])
        # Stated tie rule: equal category counts are ordered by higher spending.
        order = _ranked({c: (len(s), spend[c]) for c, s in cats.items()}, 1)
        if len(order) < 2:
            raise Reject("fewer than two customers above the mean")
        v = C[order[1] - 1]["region"]
    elif t == "L-h2":
        n, s = _group(J, "cid"), _group(J, "cid", "rev")
        elig = {c: Fraction(s[c], n[c]) for c in n if n[c] >= 3}
        order = _ranked(elig, 1)
        if len(order) < 2:
            raise Reject("fewer than two customers with 3 orders")
        v = C[order[1] - 1]["membership"]
        if v == "None":
            raise Reject("membership None as an answer")
    elif t == "L-h4":
        rows = [j for j in J if j["year"] < 2021]
        n, s = _group(rows, "cid"), _group(rows, "cid", "rev")
        best = _top({c: Fraction(s[c], n[c]) for c in n})
        cat = _top(_group([j for j in rows if j["cid"] == best], "cat", "qty"))
        stocks = [p["stock"] for p in P if p["category"] == cat]
        v = sum(stocks) // len(stocks)
    elif t == "L-h5":
        rows = [j for j in J if j["year"] >= 2021]
        best = _top(_group(rows, "cid", "rev"))
        v = _top(_group([j for j in rows if j["cid"] == best], "cat", "qty"))
    elif t == "C-h1":
        tot, cnt = _group(P, "category", "price"), _group(P, "category")
        means = [Fraction(tot[c], cnt[c]) for c in tot]
        v = math.floor(sum(means) / len(means))
    elif t == "C-h2":

        def mean_of_means(rows):
            s, n = _group(rows, "cat", "rev"), _group(rows, "cat")
            if not n:
                raise Reject("no rows")
            return math.floor(sum(Fraction(s[c], n[c]) for c in n) / len(n))

        v = abs(mean_of_means([j for j in J if j["mem"] == "Gold"]) - mean_of_means(J))
    elif t == "C-h3":
        r, d = _group(J, "q", "rev"), _group(J, "q", "drev")
        per = [d[q] * 100 // r[q] if q in r else 0 for q in (1, 2, 3, 4)]
        overall = _pct(sum(d.values()), sum(r.values()))
        v = abs(max(per) - overall)
    elif t == "C-h4":
        new = sum(j["price"] * (100 - max(0, j["disc"] - 5)) // 100 * j["qty"] for j in J)
        v = abs(new - sum(j["drev"] for j in J))
    elif t == "C-h5":
        s, n = _group(J, "q", "rev"), _group(J, "q")
        a = math.floor(sum(Fraction(s[q], n[q]) for q in n) / len(n))
        b = sum(j["rev"] for j in J) // len(J)
        v = abs(a - b)
    elif t == "C-h6":
        rev = list(_group(J, "cat", "rev").values())
        mean = sum(rev) / len(rev)
        sd = math.sqrt(sum((x - mean) ** 2 for x in rev) / len(rev))
        x = sd * 100 / mean
        if abs(x - round(x)) < 1e-6:
            raise Reject("coefficient of variation too close to an integer")
        v = math.floor(x)
    elif t == "A-h2":
        cells = _group(J, lambda j: (j["mem"], j["cat"]), "rev")
        v = max(cells.values()) * 100 // min(cells.values())
    elif t == "A-h3":
        old = _group([j for j in J if j["year"] < 2021], "region", "drev")
        v = max(old.get(r, 0) for r in _group(J, "region"))
    elif t == "A-h4":
        revs = sorted(j["rev"] for j in J)
        med = revs[len(revs) // 2]
        v = _pct(sum(x for x in revs if x > med), sum(revs))
    elif t == "A-h5":
        r, d = _group(J, "cat", "rev"), _group(J, "cat", "drev")
        per = [d[c] * 100 // r[c] for c in r]
        v = max(per) - min(per)
    elif t == "M-h2":
        spend = _group(J, "cid", "rev")
        vals = sorted(spend.values())
        med = vals[len(vals) // 2]
        hi = [j for j in J if spend[j["cid"]] > med]
        lo = [j for j in J if spend[j["cid"]] <= med]
        if not hi:
            raise Reject("empty upper group")

        def share(rows):
            return _pct(sum(j["rev"] for j in rows if j["disc"] >= 15), sum(j["rev"] for j in rows))

        v = abs(share(hi) - share(lo))
    elif t == "M-h4":
        region = _top(_group(J, "region", "rev"))
        shown["X"] = region
        top2 = set(_ranked(_group(J, "cid", "rev"), 1)[:2])
        rows = [j for j in J if j["region"] == region and j["cid"] not in top2]
        if not rows:
            raise Reject("no orders left")
        v = sum(j["rev"] for j in rows) // len(rows)
    elif t == "M-h5":
        order = _ranked(_group(J, "region"), 2)
        if len(order) < 3:
            raise Reject("fewer than three regions")
        region = order[2]
        shown["X"] = region
        rows = [j for j in J if j["region"] == region]
        best = _top(_group(rows, "cid", "rev"))
        inside = sum(j["rev"] for j in rows if j["cid"] == best)
        v = _pct(inside, sum(j["rev"] for j in J if j["cid"] == best))
    elif t == "M-h6":
        a = [j["rev"] for j in J if j["mem"] in ("Gold", "Silver")]
        b = [j["rev"] for j in J if j["mem"] in ("Bronze", "None")]
        if not a or not b:
            raise Reject("empty membership group")
        v = sum(a) * len(b) * 100 // (len(a) * sum(b))
    elif t == "L-e1":
        v = J[prm["O"] - 1]["drev"]
    elif t == "L-e2":
        order = _ranked(_group(J, "pid", "qty"), 1)
        if len(order) < 2:
            raise Reject("fewer than two products ordered")
        v = next(p["category"] for p in P if p["id"] == order[1])
    elif t in ("L-e3", "L-e4"):
        rows = [j for j in J if j["cat"] == prm["C"]]
        if t == "L-e3":
            v = len(rows)
        else:
            if not rows:
                raise Reject("no orders of the category")
            v = sum(j["qty"] for j in rows) // len(rows)
    elif t == "L-e5":
        v = C[J[prm["O"] - 1]["cid"] - 1]["region"]
    elif t in ("C-e1", "A-e3"):
        v = sum(j["rev"] for j in J if j["cat"] == prm["C"])
    elif t == "C-e2":
        v = sum(
            p["price"] * (100 - p["discount"]) // 100 * p["stock"] for p in P if p["category"] == prm["C"]
        )
    elif t == "C-e3":
        prices = [p["price"] for p in P if p["category"] == prm["C"]]
        v = sum(prices) // len(prices)
    elif t == "C-e4":
        v = sum(j["qty"] for j in J if j["q"] == prm["Q"])
    elif t == "C-e5":
        v = sum(1 for j in J if j["disc"] >= 10)
    elif t == "A-e1":
        v = sum(j["rev"] for j in J)
    elif t == "A-e2":
        v = sum(j["drev"] for j in J)
    elif t == "A-e4":
        v = sum(j["rev"] for j in J if j["qty"] > prm["t"])
    elif t == "M-e1":
        v = sum(1 for j in J if j["region"] == prm["R"] and j["cat"] == prm["C"])
    elif t == "M-e2":
        v = sum(j["qty"] for j in J if j["region"] == prm["R"] and j["q"] == prm["Q"])
    elif t == "M-e3":
        v = sum(j["rev"] for j in J if j["region"] == prm["R"])
    elif t == "M-e4":
        v = sum(j["qty"] for j in J if j["mem"] == "Gold")
    elif t == "M-e5":
        v = sum(j["rev"] for j in J if j["region"] == prm["R"] and j["cat"] == prm["C"])
    elif t == "L-m1":
        order = _ranked(_group(J, "pid", "rev"), 1)
        if len(order) < 2:
            raise Reject("fewer than two products ordered")
        v = next(p["category"] for p in P if p["id"] == order[1])
    elif t == "L-m2":
        best = _top(_group([j for j in J if j["region"] == prm["R"]], "cid", "rev"))
        v = best  # customer index; labelled with the customer's name
    elif t == "L-m3":
        pid = _top(_group([j for j in J if j["mem"] == prm["G"]], "pid", "qty"))
        v = next(p["discount"] for p in P if p["id"] == pid)
    elif t == "L-m4":
        rows = [j for j in J if j["q"] == prm["Q"]]
        pid = _top(_group(rows, "pid", "rev"))
        v = min(j["year"] for j in rows if j["pid"] == pid)
    elif t in ("C-m1", "C-m3"):
        if t == "C-m1":
            part = sum(j["rev"] for j in J if j["cat"] == prm["C"])
        else:
            part = sum(j["rev"] for j in J if j["mem"] == prm["G"])
        v = _pct(part, sum(j["rev"] for j in J))
    elif t == "C-m2":
        spend = _group(J, "cid", "rev")
        v = sum(1 for x in spend.values() if x * len(spend) > sum(spend.values()))
    elif t == "C-m4":
        m = _median_a([p["stock"] for p in P])
        shown["M"] = m
        v = _pct(sum(j["rev"] for j in J if j["stock"] > m), sum(j["rev"] for j in J))
    elif t == "A-m2":
        v = max(_group(J, "region", "rev").values())
    elif t == "A-m3":
        v = sum(j["rev"] for j in J if j["mem"] == "Gold") - sum(j["rev"] for j in J if j["mem"] == "Silver")
    elif t == "A-m4":
        v = sum(j["drev"] for j in J if j["q"] == prm["Q"])
    elif t == "M-m1":
        v = _top(_group([j for j in J if j["cat"] == prm["C"]], "region", "qty"))
    elif t == "M-m2":
        vals = sorted(_group(J, "region", "rev").values(), reverse=True)
        if len(vals) < 2:
            raise Reject("fewer than two regions")
        v = vals[1]
    elif t == "M-m3":
        v = _top(_group(J, "q"))
    elif t == "L-h3":
        rev = _group(J, "cat", "rev")
        order = _ranked({c: -x for c, x in rev.items()}, 2)  # ascending revenue
        bottom = set(order[:3])
        rows = [j for j in J if j["cat"] in bottom]
        n, q = _group(rows, "pid"), _group(rows, "pid", "qty")
        pid = _top({k: Fraction(q[k], n[k]) for k in n})
        cid = _top(_group([j for j in J if j["pid"] == pid], "cid", "qty"))
        v = C[cid - 1]["membership"]
        if v == "None":
            raise Reject("membership None as an answer")
    elif t == "A-h1":
        v = sum(j["rev"] * j["disc"] for j in J) // sum(j["rev"] for j in J)
    elif t == "A-h6":
        disc = [p["price"] * (100 - p["discount"]) // 100 for p in P if p["discount"] > 0]
        full = [p["price"] for p in P if p["discount"] == 0]
        if not disc or not full:
            raise Reject("empty product group")
        v = abs(sum(disc) // len(disc) - sum(full) // len(full))
    elif t == "M-h1":
        top3 = set(_ranked(_group(J, "cid", "rev"), 2)[:3])
        v = sum(j["rev"] for j in J if j["region"] == prm["R"] and j["cid"] not in top3)
    elif t == "M-h3":
        gold = [j for j in J if j["mem"] == "Gold"]
        v = _pct(sum(j["rev"] for j in gold if j["cat"] == prm["C"]), sum(j["rev"] for j in gold))
    else:  # pragma: no cover - catalogue and code are kept in sync by the tests
        raise ValueError(f"unknown template {t}")
    return v, shown


# =================================================================================================
# Prompt text
# =================================================================================================
Q_TEXT = {
    "L-e6": (
        "What is the total discounted revenue of all orders whose product is in category {C}?",
        "카테고리가 {C}인 상품에 대한 모든 주문의 할인 후 매출 합계는 얼마입니까?",
    ),
    "L-e7": (
        "Sum the ordered quantity per category over all orders and take the three categories with the "
        "largest totals. Among all products of those three categories in the Products table (ordered or "
        "not), find the product with the largest stock. What is its discount (in percent)?",
        "주문 테이블 전체에서 카테고리별 주문 수량 합계를 구하고, 합계가 가장 큰 카테고리 3개를 고르세요. "
        "상품 테이블에서 그 세 카테고리에 속한 모든 상품(주문 여부와 무관) 중 재고가 가장 많은 상품의 "
        "할인율(%)은 얼마입니까?",
    ),
    "L-e8": (
        "Find the order region with the largest number of orders. What is the total discounted revenue of "
        "the orders placed in that region?",
        "주문 건수가 가장 많은 주문 지역을 찾으세요. 그 지역에서 발생한 주문의 할인 후 매출 합계는 얼마입니까?",
    ),
    "C-e6": (
        "The median order quantity is {M} (with an even number of orders: the mean of the two middle "
        "quantities, truncated). What is the total revenue of the orders whose quantity is greater than {M}?",
        "주문 수량의 중앙값은 {M}입니다 (주문 수가 짝수이면 가운데 두 수량의 평균을 버림한 값). 수량이 {M}보다 "
        "큰 주문들의 매출 합계는 얼마입니까?",
    ),
    "C-e7": (
        "The average product price in the Products table, truncated, is {M}. For every product priced above "
        "{M}, multiply its discounted unit price by its stock. What is the sum of these values?",
        "상품 테이블의 평균 가격(버림)은 {M}입니다. 가격이 {M}보다 높은 각 상품에 대해 할인 후 단가에 재고를 "
        "곱하세요. 그 값들의 합은 얼마입니까?",
    ),
    "C-e8": (
        "In the Products table, find the category with the highest average discount over its products. "
        "How many orders are there for products of that category?",
        "상품 테이블에서 상품들의 평균 할인율이 가장 높은 카테고리를 찾으세요. 그 카테고리 상품에 대한 주문은 "
        "모두 몇 건입니까?",
    ),
    "A-e5": (
        "What is the total revenue of the orders placed in region {R} (the region column of the Orders table)?",
        "주문 테이블의 지역이 {R}인 주문들의 매출 합계는 얼마입니까?",
    ),
    "A-e6": (
        "What is the total revenue of all orders minus the total discounted revenue of all orders?",
        "전체 주문의 매출 합계에서 전체 주문의 할인 후 매출 합계를 뺀 값은 얼마입니까?",
    ),
    "A-e7": (
        "The median stock over the Products table is {M} (with an even number of products: the mean of the "
        "two middle values, truncated). What is the total revenue of the orders whose product has a stock "
        "greater than {M}?",
        "상품 테이블 재고의 중앙값은 {M}입니다 (상품 수가 짝수이면 가운데 두 값의 평균을 버림한 값). 주문한 "
        "상품의 재고가 {M}보다 많은 주문들의 매출 합계는 얼마입니까?",
    ),
    "M-e6": (
        "How many orders are for products of category {C} and were placed in quarter {Q}?",
        "카테고리가 {C}인 상품에 대한 주문 중 분기가 {Q}인 주문은 몇 건입니까?",
    ),
    "M-e7": (
        "What is the total discounted revenue of the orders placed in region {R} (Orders table)?",
        "주문 테이블의 지역이 {R}인 주문들의 할인 후 매출 합계는 얼마입니까?",
    ),
    "M-e8": (
        "The average product price in the Products table, truncated, is {M}. How many orders placed in region "
        "{R} (Orders table) are for a product priced above {M}?",
        "상품 테이블의 평균 가격(버림)은 {M}입니다. 주문 테이블의 지역이 {R}인 주문 중 가격이 {M}보다 높은 "
        "상품에 대한 주문은 몇 건입니까?",
    ),
    "L-m5": (
        "For each category, count the distinct products that appear in at least one order. Take the category "
        "with the second-highest count. What is the total revenue of that category's orders?",
        "카테고리별로 한 번 이상 주문된 서로 다른 상품의 수를 세세요. 그 수가 두 번째로 많은 카테고리의 주문 "
        "매출 합계는 얼마입니까?",
    ),
    "L-m6": (
        "The average order quantity over all orders, truncated, is {M}. What is the total revenue of the "
        "orders whose quantity is greater than {M}?",
        "전체 주문의 평균 수량(버림)은 {M}입니다. 수량이 {M}보다 큰 주문들의 매출 합계는 얼마입니까?",
    ),
    "C-m5": (
        "The quarter with the most orders is {X}. Of the total revenue of the orders in {X}, what percentage "
        "comes from orders of customers with Gold membership? (truncate)",
        "주문 건수가 가장 많은 분기는 {X}입니다. {X} 주문의 매출 합계 중 등급이 골드인 고객의 주문 매출이 "
        "차지하는 비율(%, 버림)은 얼마입니까?",
    ),
    "C-m6": (
        "Compute (a) the quantity-weighted average price = total revenue / total quantity over all orders, "
        "truncated, and (b) the simple average product price over the Products table, truncated. What is "
        "the absolute difference between (a) and (b)?",
        "(a) 수량 가중 평균 가격 = 전체 주문의 매출 합계 / 전체 주문 수량 합계 (버림), (b) 상품 테이블의 단순 "
        "평균 가격 (버림)을 구하세요. (a)와 (b)의 차의 절댓값은 얼마입니까?",
    ),
    "A-m1": (
        "The average order quantity over all orders, truncated, is {M}. What is the total discounted revenue "
        "of the orders whose quantity is greater than {M}?",
        "전체 주문의 평균 수량(버림)은 {M}입니다. 수량이 {M}보다 큰 주문들의 할인 후 매출 합계는 얼마입니까?",
    ),
    "A-m5": (
        "Compute the total revenue of each category that has at least one order. What is the largest "
        "category revenue minus the smallest?",
        "주문이 한 건 이상 있는 카테고리별 매출 합계를 구하세요. 가장 큰 카테고리 매출에서 가장 작은 카테고리 "
        "매출을 뺀 값은 얼마입니까?",
    ),
    "A-m6": (
        "Compute the total discounted revenue of each quarter Q1, Q2, Q3 and Q4 (0 for a quarter without "
        "orders). What is the largest of the four values minus the smallest?",
        "1분기, 2분기, 3분기, 4분기 각각의 할인 후 매출 합계를 구하세요 (주문이 없는 분기는 0). 네 값 중 가장 큰 "
        "값에서 가장 작은 값을 뺀 값은 얼마입니까?",
    ),
    "M-m4": (
        "Consider only the orders of customers with Gold membership. Which category has the largest number of "
        "distinct products among these orders?",
        "등급이 골드인 고객의 주문만 보세요. 이 주문들에서 서로 다른 상품의 수가 가장 많은 카테고리는 무엇입니까?",
    ),
    "M-m5": (
        "Find the category with the largest number of orders. What is the total discounted revenue of that "
        "category's orders?",
        "주문 건수가 가장 많은 카테고리를 찾으세요. 그 카테고리 주문의 할인 후 매출 합계는 얼마입니까?",
    ),
    "M-m6": (
        "Among the orders placed in region {R} (Orders table), what is the number of orders by customers "
        "whose membership is not Gold minus the number of orders by Gold customers? (The result may be "
        "negative.)",
        "주문 테이블의 지역이 {R}인 주문 중, 등급이 골드가 아닌 고객의 주문 건수에서 골드 고객의 주문 건수를 뺀 "
        "값은 얼마입니까? (음수일 수 있습니다.)",
    ),
    "L-h1": (
        "Compute each customer's spending (customers with at least one order) and the average of these "
        "spendings. Among the customers whose spending is above that average, rank them by the number of "
        "distinct categories they have ordered, from most to fewest; customers with the same number of "
        "categories are ordered by higher spending first. What is the region (Customers table) of the "
        "customer in second place?",
        "주문이 한 건 이상 있는 고객별 구매액과 그 평균을 구하세요. 구매액이 평균보다 큰 고객들을 주문한 서로 다른 "
        "카테고리 수가 많은 순으로 줄 세우되, 카테고리 수가 같으면 구매액이 큰 고객을 앞에 둡니다. 이때 두 번째 "
        "고객의 지역(고객 테이블)은 어디입니까?",
    ),
    "L-h2": (
        "Consider the customers with at least 3 orders. Rank them by their average order revenue (their "
        "spending divided by their number of orders), from highest to lowest. What is the membership of the "
        "customer in second place?",
        "주문이 3건 이상인 고객들을 주문당 평균 매출(구매액 / 주문 건수)이 높은 순으로 줄 세우세요. 두 번째 "
        "고객의 등급은 무엇입니까?",
    ),
    "L-h4": (
        "Among customers who joined before 2021 and have at least one order, find the one with the highest "
        "average order revenue. Among that customer's orders, find the category with the largest total "
        "quantity. What is the average stock of all products of that category in the Products table, "
        "truncated?",
        "2021년 이전에 가입했고 주문이 한 건 이상 있는 고객 중 주문당 평균 매출이 가장 높은 고객을 찾으세요. 그 "
        "고객의 주문에서 수량 합계가 가장 큰 카테고리를 찾으세요. 상품 테이블에서 그 카테고리에 속한 모든 상품의 "
        "평균 재고(버림)는 얼마입니까?",
    ),
    "L-h5": (
        "Among customers who joined in 2021 or later, find the one with the highest spending. Among that "
        "customer's orders, which category has the largest total quantity?",
        "2021년 이후(2021년 포함)에 가입한 고객 중 구매액이 가장 큰 고객을 찾으세요. 그 고객의 주문에서 수량 "
        "합계가 가장 큰 카테고리는 무엇입니까?",
    ),
    "C-h1": (
        "For each category in the Products table, compute the exact average price of its products. What is "
        "the average of these category averages, truncated?",
        "상품 테이블의 카테고리별로 상품 평균 가격을 정확히(버림 없이) 구하세요. 이 카테고리 평균들의 평균을 "
        "버림한 값은 얼마입니까?",
    ),
    "C-h2": (
        "For a set of orders, define X = the average over categories (those present in the set) of the "
        "category's average order revenue, computed exactly and truncated at the end. Compute X for the "
        "orders of Gold-membership customers and X for all orders. What is the absolute difference?",
        "주문 집합에 대해 X = (그 집합에 나타나는 카테고리별 주문당 평균 매출)의 카테고리 평균을 정확히 계산한 뒤 "
        "마지막에 버림한 값이라고 합시다. 골드 등급 고객의 주문에 대한 X와 전체 주문에 대한 X를 구하세요. 두 값의 "
        "차의 절댓값은 얼마입니까?",
    ),
    "C-h3": (
        "For each quarter Q1..Q4, compute truncate(discounted revenue x 100 / revenue) over that quarter's "
        "orders (0 for a quarter without orders). Also compute the same percentage over all orders. What is "
        "the absolute difference between the largest quarterly value and the overall value?",
        "1분기~4분기 각각에 대해 그 분기 주문의 (할인 후 매출 x 100 / 매출)을 버림한 값을 구하세요 (주문이 없는 "
        "분기는 0). 전체 주문에 대해서도 같은 비율을 구하세요. 분기 값 중 가장 큰 값과 전체 값의 차의 절댓값은 "
        "얼마입니까?",
    ),
    "C-h4": (
        "Suppose every product's discount were lowered by 5 percentage points (but not below 0). What is the "
        "absolute difference between the total discounted revenue of all orders under these new discounts and "
        "the actual total discounted revenue?",
        "모든 상품의 할인율을 5%포인트씩 낮춘다고 가정합니다 (0 미만이 되면 0). 새 할인율로 계산한 전체 주문의 "
        "할인 후 매출 합계와 실제 할인 후 매출 합계의 차의 절댓값은 얼마입니까?",
    ),
    "C-h5": (
        "Compute (a) for each quarter that has orders, the exact average order revenue, then the average of "
        "these quarterly averages, truncated; (b) the average order revenue over all orders, truncated. What "
        "is the absolute difference between (a) and (b)?",
        "(a) 주문이 있는 분기별 주문당 평균 매출을 정확히 구한 뒤 그 평균들의 평균을 버림한 값, (b) 전체 주문의 "
        "주문당 평균 매출을 버림한 값을 구하세요. (a)와 (b)의 차의 절댓값은 얼마입니까?",
    ),
    "C-h6": (
        "Compute the total revenue of each category that has at least one order. What is the coefficient of "
        "variation of these category revenues, truncate(population standard deviation x 100 / mean)?",
        "주문이 한 건 이상 있는 카테고리별 매출 합계를 구하세요. 이 값들의 변동계수, 즉 (모표준편차 x 100 / "
        "평균)을 버림한 값은 얼마입니까?",
    ),
    "A-h2": (
        "Group the orders by (customer membership, product category) and compute the revenue of every "
        "combination that occurs. What is truncate(largest combination revenue x 100 / smallest combination "
        "revenue)?",
        "주문을 (고객 등급, 상품 카테고리) 조합으로 묶어, 실제로 나타나는 조합마다 매출 합계를 구하세요. (가장 큰 "
        "조합 매출 x 100 / 가장 작은 조합 매출)을 버림한 값은 얼마입니까?",
    ),
    "A-h3": (
        "For each order region (Orders table), compute the discounted revenue of all its orders minus the "
        "discounted revenue of its orders by customers who joined in 2021 or later. What is the maximum of "
        "this value over the regions?",
        "주문 테이블의 지역별로, 그 지역 전체 주문의 할인 후 매출에서 2021년 이후(2021년 포함)에 가입한 고객의 "
        "주문 할인 후 매출을 뺀 값을 구하세요. 지역별 값 중 최댓값은 얼마입니까?",
    ),
    "A-h4": (
        "Let the median order revenue be the middle value of all order revenues sorted in ascending order "
        "(with an even number of orders, the upper of the two middle values). What percentage of the total "
        "revenue comes from orders whose revenue is greater than this median? (truncate)",
        "주문별 매출을 오름차순으로 정렬했을 때 가운데 값을 중앙값이라 합니다 (주문 수가 짝수이면 가운데 두 값 중 "
        "큰 값). 매출이 이 중앙값보다 큰 주문들의 매출이 전체 매출에서 차지하는 비율(%, 버림)은 얼마입니까?",
    ),
    "A-h5": (
        "For each category that has at least one order, compute truncate(discounted revenue x 100 / revenue) "
        "over its orders. What is the largest of these values minus the smallest?",
        "주문이 한 건 이상 있는 카테고리별로 그 주문들의 (할인 후 매출 x 100 / 매출)을 버림한 값을 구하세요. 그 "
        "값들 중 최댓값에서 최솟값을 뺀 값은 얼마입니까?",
    ),
    "M-h2": (
        "Compute each customer's spending (customers with at least one order). Let the median spending be "
        "the middle value in ascending order (with an even number of customers, the upper of the two middle "
        "values). Split the customers into group A (spending above the median) and group B (at or below the "
        "median). For each group, compute the percentage of the group's revenue that comes from orders of "
        "products with a discount of 15 or more (truncate). What is the absolute difference between the two "
        "percentages?",
        "주문이 한 건 이상 있는 고객별 구매액을 구하세요. 구매액을 오름차순으로 정렬했을 때 가운데 값을 중앙값이라 "
        "합니다 (고객 수가 짝수이면 가운데 두 값 중 큰 값). 구매액이 중앙값보다 큰 고객을 A 그룹, 중앙값 이하인 "
        "고객을 B 그룹으로 나누세요. 각 그룹의 매출 중 할인율이 15 이상인 상품의 주문 매출이 차지하는 비율(%, "
        "버림)을 구하세요. 두 비율의 차의 절댓값은 얼마입니까?",
    ),
    "M-h4": (
        "The order region with the highest total revenue is {X}. Exclude all orders of the two customers "
        "with the highest spending over all orders. What is the average revenue of the remaining orders "
        "placed in {X}, truncated?",
        "매출 합계가 가장 큰 주문 지역은 {X}입니다. 전체 주문 기준 구매액이 가장 큰 고객 두 명의 주문을 모두 "
        "제외하세요. 남은 주문 중 지역이 {X}인 주문의 주문당 평균 매출(버림)은 얼마입니까?",
    ),
    "M-h5": (
        "The order region with the third-largest number of orders is {X}. Find the customer with the highest "
        "revenue from orders placed in {X}. What is that customer's revenue in {X} as a percentage of that "
        "customer's total spending over all orders? (truncate)",
        "주문 건수가 세 번째로 많은 주문 지역은 {X}입니다. {X}에서 발생한 주문 매출이 가장 큰 고객을 찾으세요. 그 "
        "고객의 {X} 주문 매출이 그 고객의 전체 주문 구매액에서 차지하는 비율(%, 버림)은 얼마입니까?",
    ),
    "M-h6": (
        "Let a = the average order revenue of the orders of Gold or Silver customers and b = the average order "
        "revenue of the orders of Bronze or None customers (both exact). What is truncate(a x 100 / b)?",
        "a = 골드 또는 실버 등급 고객 주문의 주문당 평균 매출, b = 브론즈 또는 없음 등급 고객 주문의 주문당 평균 "
        "매출이라고 합시다 (둘 다 정확한 값). (a x 100 / b)를 버림한 값은 얼마입니까?",
    ),
}

Q_TEXT.update(
    {
        "L-e1": (
            "For order {O}, what is the discounted unit price of the ordered product multiplied by the order's "
            "quantity?",
            "주문번호 {O} 주문에 대해, 주문한 상품의 할인 후 단가에 주문 수량을 곱한 값은 얼마입니까?",
        ),
        "L-e2": (
            "Sum the ordered quantity of each product over all orders. What is the category of the product with "
            "the second-largest total quantity?",
            "전체 주문에서 상품별 주문 수량 합계를 구하세요. 수량 합계가 두 번째로 큰 상품의 카테고리는 무엇입니까?",
        ),
        "L-e3": (
            "How many orders are for products of category {C}?",
            "카테고리가 {C}인 상품에 대한 주문은 모두 몇 건입니까?",
        ),
        "L-e4": (
            "What is the average quantity of the orders for products of category {C}, truncated?",
            "카테고리가 {C}인 상품에 대한 주문들의 평균 수량(버림)은 얼마입니까?",
        ),
        "L-e5": (
            "What is the region, according to the Customers table, of the customer who placed order {O}?",
            "주문번호 {O} 주문을 한 고객의 지역(고객 테이블 기준)은 어디입니까?",
        ),
        "C-e1": (
            "What is the total revenue of the orders for products of category {C}?",
            "카테고리가 {C}인 상품에 대한 주문들의 매출 합계는 얼마입니까?",
        ),
        "C-e2": (
            "For every product of category {C} in the Products table, multiply its discounted unit price by its "
            "stock. What is the sum of these values?",
            "상품 테이블에서 카테고리가 {C}인 각 상품에 대해 할인 후 단가에 재고를 곱하세요. 그 값들의 합은 "
            "얼마입니까?",
        ),
        "C-e3": (
            "What is the average price of the products of category {C} in the Products table, truncated?",
            "상품 테이블에서 카테고리가 {C}인 상품들의 평균 가격(버림)은 얼마입니까?",
        ),
        "C-e4": (
            "What is the total quantity of the orders placed in quarter {Q}?",
            "분기가 {Q}인 주문들의 수량 합계는 얼마입니까?",
        ),
        "C-e5": (
            "How many orders are for a product whose discount is 10 or more?",
            "할인율이 10 이상인 상품에 대한 주문은 몇 건입니까?",
        ),
        "A-e1": (
            "What is the total revenue of all orders?",
            "전체 주문의 매출 합계는 얼마입니까?",
        ),
        "A-e2": (
            "What is the total discounted revenue of all orders?",
            "전체 주문의 할인 후 매출 합계는 얼마입니까?",
        ),
        "A-e3": (
            "What is the total revenue of the orders whose product is in category {C}?",
            "상품의 카테고리가 {C}인 주문들의 매출 합계는 얼마입니까?",
        ),
        "A-e4": (
            "What is the total revenue of the orders whose quantity is greater than {t}?",
            "수량이 {t}보다 큰 주문들의 매출 합계는 얼마입니까?",
        ),
        "M-e1": (
            "How many orders placed in region {R} (Orders table) are for products of category {C}?",
            "주문 테이블의 지역이 {R}인 주문 중 카테고리가 {C}인 상품에 대한 주문은 몇 건입니까?",
        ),
        "M-e2": (
            "What is the total quantity of the orders placed in region {R} (Orders table) in quarter {Q}?",
            "주문 테이블의 지역이 {R}이고 분기가 {Q}인 주문들의 수량 합계는 얼마입니까?",
        ),
        "M-e3": (
            "What is the total revenue of all orders whose Orders-table region is {R}?",
            "주문 테이블의 지역 값이 {R}인 모든 주문의 매출 합계는 얼마입니까?",
        ),
        "M-e4": (
            "What is the total quantity ordered by customers with Gold membership?",
            "등급이 골드인 고객들이 주문한 수량의 합계는 얼마입니까?",
        ),
        "M-e5": (
            "What is the total revenue of the orders for products of category {C} placed in region {R} (Orders "
            "table)?",
            "주문 테이블의 지역이 {R}이고 상품 카테고리가 {C}인 주문들의 매출 합계는 얼마입니까?",
        ),
        "L-m1": (
            "Compute the total revenue of each product over all orders. What is the category of the product with "
            "the second-highest revenue?",
            "전체 주문에서 상품별 매출 합계를 구하세요. 매출이 두 번째로 큰 상품의 카테고리는 무엇입니까?",
        ),
        "L-m2": (
            "Considering only the orders placed in region {R} (Orders table), which customer has the highest "
            "total revenue from those orders? Answer with the customer's name.",
            "주문 테이블의 지역이 {R}인 주문만 볼 때, 그 주문들의 매출 합계가 가장 큰 고객은 누구입니까? 고객 "
            "이름으로 답하세요.",
        ),
        "L-m3": (
            "Among the orders of customers with membership {G}, find the product with the largest total "
            "quantity. What is that product's discount (in percent)?",
            "등급이 {G}인 고객들의 주문 중 수량 합계가 가장 큰 상품을 찾으세요. 그 상품의 할인율(%)은 얼마입니까?",
        ),
        "L-m4": (
            "Among the orders placed in quarter {Q}, find the product with the highest total revenue. Among the "
            "customers who ordered that product in {Q}, what is the earliest join year?",
            "분기가 {Q}인 주문 중 매출 합계가 가장 큰 상품을 찾으세요. {Q}에 그 상품을 주문한 고객들 중 가장 이른 "
            "가입연도는 몇 년입니까?",
        ),
        "C-m1": (
            "What percentage of the total revenue comes from orders for products of category {C}? (truncate)",
            "전체 매출 중 카테고리가 {C}인 상품의 주문 매출이 차지하는 비율(%, 버림)은 얼마입니까?",
        ),
        "C-m2": (
            "Compute each customer's spending (customers with at least one order) and the average of these "
            "spendings. How many customers have a spending greater than that average?",
            "주문이 한 건 이상 있는 고객별 구매액과 그 평균을 구하세요. 구매액이 평균보다 큰 고객은 몇 명입니까?",
        ),
        "C-m3": (
            "What percentage of the total revenue comes from orders of customers with membership {G}? (truncate)",
            "전체 매출 중 등급이 {G}인 고객의 주문 매출이 차지하는 비율(%, 버림)은 얼마입니까?",
        ),
        "C-m4": (
            "The median stock over the Products table is {M} (with an even number of products: the mean of the "
            "two middle values, truncated). What percentage of the total revenue comes from orders of products "
            "with a stock greater than {M}? (truncate)",
            "상품 테이블 재고의 중앙값은 {M}입니다 (상품 수가 짝수이면 가운데 두 값의 평균을 버림한 값). 전체 매출 "
            "중 재고가 {M}보다 많은 상품의 주문 매출이 차지하는 비율(%, 버림)은 얼마입니까?",
        ),
        "A-m2": (
            "Compute the total revenue of each order region (Orders table). What is the revenue of the region "
            "with the highest total?",
            "주문 테이블의 지역별 매출 합계를 구하세요. 매출 합계가 가장 큰 지역의 매출은 얼마입니까?",
        ),
        "A-m3": (
            "What is the total revenue of the orders of Gold customers minus the total revenue of the orders of "
            "Silver customers? (The result may be negative.)",
            "골드 등급 고객 주문의 매출 합계에서 실버 등급 고객 주문의 매출 합계를 뺀 값은 얼마입니까? (음수일 수 "
            "있습니다.)",
        ),
        "A-m4": (
            "What is the total discounted revenue of the orders placed in quarter {Q}?",
            "분기가 {Q}인 주문들의 할인 후 매출 합계는 얼마입니까?",
        ),
        "M-m1": (
            "Considering only orders for products of category {C}, which order region (Orders table) has the "
            "largest total quantity?",
            "카테고리가 {C}인 상품의 주문만 볼 때, 수량 합계가 가장 큰 주문 지역(주문 테이블)은 어디입니까?",
        ),
        "M-m2": (
            "Compute the total revenue of each order region (Orders table). What is the revenue of the region "
            "ranked second by revenue?",
            "주문 테이블의 지역별 매출 합계를 구하세요. 매출이 두 번째로 큰 지역의 매출은 얼마입니까?",
        ),
        "M-m3": (
            "Which quarter has the most orders? Answer with the quarter exactly as written in the Orders table "
            "(for example Q1).",
            "주문 건수가 가장 많은 분기는 언제입니까? 주문 테이블에 적힌 그대로(예: 1분기) 답하세요.",
        ),
        "L-h3": (
            "Compute the total revenue of each category that has at least one order and take the three "
            "categories with the lowest revenue. Among the ordered products of those three categories, find the "
            "product with the highest average quantity per order. Among the customers who ordered that product, "
            "find the one with the largest total quantity of it. What is that customer's membership?",
            "주문이 한 건 이상 있는 카테고리별 매출 합계를 구하고, 매출이 가장 작은 카테고리 3개를 고르세요. 그 세 "
            "카테고리의 상품 중 주문된 상품에서 주문당 평균 수량이 가장 큰 상품을 찾으세요. 그 상품을 주문한 고객 중 "
            "그 상품의 수량 합계가 가장 큰 고객의 등급은 무엇입니까?",
        ),
        "A-h1": (
            "What is the revenue-weighted average discount, truncate(sum over orders of revenue x discount / "
            "total revenue)?",
            "매출 가중 평균 할인율, 즉 (주문별 매출 x 할인율의 합 / 전체 매출)을 버림한 값은 얼마입니까?",
        ),
        "A-h6": (
            "In the Products table, compute (a) the average discounted unit price of the products with a "
            "discount greater than 0, truncated, and (b) the average price of the products with discount 0, "
            "truncated. What is the absolute difference between (a) and (b)?",
            "상품 테이블에서 (a) 할인율이 0보다 큰 상품들의 평균 할인 후 단가(버림), (b) 할인율이 0인 상품들의 평균 "
            "가격(버림)을 구하세요. (a)와 (b)의 차의 절댓값은 얼마입니까?",
        ),
        "M-h1": (
            "Exclude all orders of the three customers with the highest spending over all orders. What is the "
            "total revenue of the remaining orders placed in region {R} (Orders table)?",
            "전체 주문 기준 구매액이 가장 큰 고객 세 명의 주문을 모두 제외하세요. 남은 주문 중 주문 테이블의 지역이 "
            "{R}인 주문들의 매출 합계는 얼마입니까?",
        ),
        "M-h3": (
            "Of the total revenue of the orders of Gold customers, what percentage comes from products of "
            "category {C}? (truncate)",
            "골드 등급 고객 주문의 매출 합계 중 카테고리가 {C}인 상품의 매출이 차지하는 비율(%, 버림)은 얼마입니까?",
        ),
    }
)

RULES = {
    "en": (
        "Definitions used in the question:\n"
        "- Revenue of an order = price of the ordered product (Products table) x quantity.\n"
        "- Discounted unit price = price x (100 - discount) / 100; discounted revenue of an order = "
        "discounted unit price x quantity.\n"
        "- A customer's spending = the total revenue of that customer's orders (matched by customer_id).\n"
        "- Orders.region is where the order was placed; Customers.region is the customer's home region. "
        "They are unrelated.\n"
        "- Use the table values exactly as given (a product's category is what the table says). Columns the "
        "question does not mention are irrelevant.\n"
        "- Truncate = drop the fractional part. A percentage is truncate(part x 100 / whole). Averages are "
        "exact unless the question says they are truncated.\n"
        "- A per-group statistic (per category, region, quarter, customer, ...) covers only groups that have "
        "at least one row in the data being aggregated, unless the question says otherwise.\n"
        "- Every ranking the question relies on (largest, second, third, top three) has no ties at the "
        "positions used."
    ),
    "ko": (
        "질문에 쓰이는 정의:\n"
        "- 주문의 매출 = 주문한 상품의 가격(상품 테이블) x 수량.\n"
        "- 할인 후 단가 = 가격 x (100 - 할인율) / 100, 주문의 할인 후 매출 = 할인 후 단가 x 수량.\n"
        "- 고객의 구매액 = 그 고객(고객번호로 연결)의 주문 매출 합계.\n"
        "- 주문 테이블의 지역은 주문이 발생한 지역이고, 고객 테이블의 지역은 고객의 거주 지역입니다. 둘은 "
        "서로 관계가 없습니다.\n"
        "- 표의 값을 그대로 사용합니다 (상품의 카테고리는 표에 적힌 대로입니다). 질문에 나오지 않는 열은 "
        "계산에 쓰지 않습니다.\n"
        "- 버림 = 소수점 이하를 버림. 비율(%) = (부분 x 100 / 전체)를 버림한 값. 평균은 질문에 버림이라고 "
        "적혀 있지 않으면 정확한 값입니다.\n"
        "- 그룹별 통계(카테고리, 지역, 분기, 고객 등)는 질문에 따로 적혀 있지 않으면 계산 대상 데이터에 한 행 "
        "이상 있는 그룹만 포함합니다.\n"
        "- 질문이 사용하는 순위(가장 큰 것, 두 번째, 세 번째, 상위 3개)에는 해당 위치에 동점이 없습니다."
    ),
}


def _label(field, code, lang):
    if field == "quarter":
        return V.QUARTERS[code][0 if lang == "en" else 1]
    if lang == "en":
        return str(code)
    return _VALUE_MAPS[field][code] if field in _VALUE_MAPS else str(code)


def _render_tables(inst, lang):
    li = 0 if lang == "en" else 1
    pnames = [p["name"][li] for p in inst["products"]]
    cids = [c["customer_id"] for c in inst["customers"]]
    quarters = {q: v[li] for q, v in V.QUARTERS.items()}
    out = []
    for table in ("products", "orders", "customers"):
        cols = inst["columns"][table]
        header = " | ".join(cols if lang == "en" else [KO_HEADERS[c] for c in cols])
        out += [TITLES[lang][table], header, "-" * len(header)]
        getters = []
        for c in cols:
            if c in ("name",) or (c == "product" and table == "products"):
                getters.append(lambda r: r["name"][li])
            elif c == "product":
                getters.append(lambda r: pnames[r["product"] - 1])
            elif c == "customer_id" and table == "orders":
                getters.append(lambda r: cids[r["customer"] - 1])
            elif c == "quarter":
                getters.append(lambda r: quarters[r["quarter"]])
            elif lang == "ko" and c in _VALUE_MAPS:
                getters.append(lambda r, c=c, m=_VALUE_MAPS[c]: m[r[c]])
            else:
                getters.append(lambda r, c=c: str(r[c]))
        for row in inst[table]:
            out.append(" | ".join([g(row) for g in getters]))
        out.append("")
    return out


class ArrayFormula(Puzzle):
    name = "array_formula"
    version = "1"
    levers = {
        tier: {
            "gen_mixture": mix,
            "gen_sizes": {g: GEN_SIZES[g] for g in mix},
            "problem_types": list(PTYPES),
            "templates": {
                g: {t: round(template_weight(t), 4) for t, c in CATALOGUE.items() if c[0] == g} for g in mix
            },
            "ties": "rejected at every ranking position used",
        }
        for tier, mix in (
            ("easy", {"easy": 0.18, "medium": 0.82}),
            ("medium", {"medium": 0.5, "hard": 0.5}),
            ("hard", {"hard": 1.0}),
        )
    }

    def sample(self, rng, levers, lang):
        mix = levers["gen_mixture"]
        gens = sorted(mix)
        gen = rng.choices(gens, weights=[mix[g] for g in gens])[0]
        columns, products, orders, customers = _tables(rng, gen)
        ptype = rng.choice(PTYPES)
        tids = sorted(t for t, c in CATALOGUE.items() if c[0] == gen and c[1] == ptype)
        tid = rng.choices(tids, weights=[levers["templates"][gen][t] for t in tids])[0]
        need = CATALOGUE[tid][4]
        params = choose_params(rng, need, products, orders)
        inst = {
            "gen": gen,
            "problem_type": ptype,
            "template": tid,
            "params": params,
            "answer_type": CATALOGUE[tid][3],
            "columns": columns,
            "products": products,
            "orders": orders,
            "customers": customers,
        }
        _compute(inst)  # raises Reject on ties / degenerate groups
        return inst

    def gold(self, instance, lang):
        value, _ = _compute(instance)
        if instance["answer_type"] == "number":
            return str(value)
        return _answer_label(instance, value, lang)

    def solution(self, instance, lang):
        value, shown = _compute(instance)
        extra = ", ".join(f"{k}={v}" for k, v in sorted(shown.items()))
        head = f"template {instance['template']}" + (f" ({extra})" if extra else "")
        return head + "\n" + ("Answer: " if lang == "en" else "정답: ") + self.gold(instance, lang)

    def render(self, instance, lang, levers):
        _, shown = _compute(instance)
        li = 0 if lang == "en" else 1
        fields = {}
        prm = instance["params"]
        if "C" in prm:
            fields["C"] = _label("category", prm["C"], lang)
        if "R" in prm:
            fields["R"] = _label("region", prm["R"], lang)
        if "Q" in prm:
            fields["Q"] = V.QUARTERS[prm["Q"]][li]
        if "O" in prm:
            fields["O"] = instance["orders"][prm["O"] - 1]["order_id"]
        if "G" in prm:
            fields["G"] = _label("membership", prm["G"], lang)
        if "t" in prm:
            fields["t"] = str(prm["t"])
        if "M" in shown:
            fields["M"] = str(shown["M"])
        if "X" in shown:
            x = shown["X"]
            fields["X"] = V.QUARTERS[x][li] if isinstance(x, int) else _label("region", x, lang)
        q = Q_TEXT[instance["template"]][li].format(**fields)
        intro = (
            "The following spreadsheet tables hold the products, orders and customers of a food retailer."
            if lang == "en"
            else "다음 스프레드시트 표는 한 식품 판매점의 상품, 주문, 고객 데이터입니다."
        )
        out = [intro, ""] + _render_tables(instance, lang) + [RULES[lang], ""]
        out.append(("Question: " if lang == "en" else "질문: ") + q)
        out.append("")
        number = instance["answer_type"] == "number"
        if lang == "en":
            out.append(
                "Answer with a single integer: digits only, no units or thousands separators (a leading minus "
                "sign if negative)."
                if number
                else "Answer with the value exactly as it is written in the tables."
            )
            out.append("End your response with a final line of the form:\nAnswer: <your answer>")
        else:
            out.append(
                "정수 하나로 답하세요: 단위나 천 단위 쉼표 없이 숫자만 씁니다 (음수이면 앞에 마이너스 부호)."
                if number
                else "표에 적힌 값 그대로 답하세요."
            )
            out.append("응답의 마지막 줄을 다음 형식으로 쓰세요.\n정답: <답>")
        return "\n".join(out)

    # ---- verification ------------------------------------------------------------------------
    def check(self, item, instance):
        from ._array_formula_verify import verify_item

        verify_item(item, instance)

    # ---- scoring -----------------------------------------------------------------------------
    def extract(self, response, answer, lang):
        payload = last_label_payload(response)
        if payload is None:
            m = _FIRST_ANSWER.search(response)
            if m:
                payload = m.group(1)
            else:
                lines = [ln for ln in response.splitlines() if ln.strip()]
                payload = lines[-1] if lines else ""
        payload = payload.strip()
        if _NUMBER_GOLD.fullmatch(answer.strip()):
            m = _NUMBER.search(payload.replace(",", ""))
            return m.group(0) if m else None
        return payload

    def matches(self, extracted, answer, lang):
        gold = answer.strip()
        if _NUMBER_GOLD.fullmatch(gold):
            try:
                return abs(float(extracted) - float(gold)) < 0.001
            except (ValueError, OverflowError):
                return False
        text = extracted.strip().strip("'\"").strip()
        if text.lower() == gold.lower():
            return True
        # Deliberate leniency: Markdown emphasis / trailing period / quotes around the label.
        loose = text.strip("*_`'\" ").rstrip(".").strip("*_`'\" ")
        return loose.lower() == gold.lower()


_FIRST_ANSWER = re.compile(r"(?:final answer|answer|최종 답)\s*[:：]\s*([^\n]*)", re.IGNORECASE)
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_NUMBER_GOLD = re.compile(r"-?\d+(?:\.\d+)?")


TEXT_FIELDS = {
    "L-e2": "category",
    "L-e5": "region",
    "L-m1": "category",
    "L-m2": "name",
    "M-m1": "region",
    "M-m3": "quarter",
    "L-h1": "region",
    "L-h2": "membership",
    "L-h3": "membership",
    "L-h5": "category",
    "M-m4": "category",
}


def _answer_label(instance, value, lang):
    field = TEXT_FIELDS[instance["template"]]
    if field == "name":
        return instance["customers"][value - 1]["name"][0 if lang == "en" else 1]
    return _label(field, value, lang)


PUZZLE = ArrayFormula()
