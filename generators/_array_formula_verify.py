"""Independent verifier of array_formula items.

Written separately from the generator's ``_compute``: the tables are parsed back from the question
text, joined by product *name* and customer id, and every template is recomputed with exact
``Fraction`` arithmetic. Each ranking step enumerates every tie-break order, so a template yields the
*set* of answers the question admits; the item is verified only if that set is exactly {gold}.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from itertools import combinations

from . import _array_formula_data as V
from .base import VerificationError

_TITLES = {
    "en": ("[Products Table]", "[Orders Table]", "[Customers Table]"),
    "ko": ("[상품 테이블]", "[주문 테이블]", "[고객 테이블]"),
}
_KO_TO_COL = {
    "id": "id",
    "상품명": "product",
    "카테고리": "category",
    "가격": "price",
    "재고": "stock",
    "할인율": "discount",
    "공급사": "supplier",
    "창고": "warehouse",
    "세율": "tax_rate",
    "평점": "rating",
    "주문번호": "order_id",
    "지역": "region",
    "수량": "quantity",
    "분기": "quarter",
    "고객번호": "customer_id",
    "채널": "channel",
    "우선순위": "priority",
    "배송비": "shipping_fee",
    "프로모션율": "promo_rate",
    "이름": "name",
    "등급": "membership",
    "가입연도": "join_year",
    "세그먼트": "segment",
    "연령대": "age_group",
    "포인트": "loyalty_points",
}
_INTS = {
    "id",
    "price",
    "stock",
    "discount",
    "tax_rate",
    "rating",
    "quantity",
    "shipping_fee",
    "promo_rate",
    "join_year",
    "loyalty_points",
}
_CODED = {
    "category": V.CATEGORIES,
    "region": V.REGIONS,
    "membership": V.MEMBERSHIPS,
    "warehouse": V.WAREHOUSES,
    "channel": V.CHANNELS,
    "priority": V.PRIORITIES,
    "segment": V.SEGMENTS,
    "age_group": V.AGE_GROUPS,
}


def _decode(col, text, lang):
    if col in _INTS:
        if not text.lstrip("-").isdigit():
            raise VerificationError(f"non-integer {col} cell {text!r}")
        return int(text)
    if col == "quarter":
        for q, labels in V.QUARTERS.items():
            if text == labels[0 if lang == "en" else 1]:
                return q
        raise VerificationError(f"bad quarter {text!r}")
    if col in _CODED:
        table = _CODED[col]
        if lang == "en":
            if text not in table:
                raise VerificationError(f"unknown {col} {text!r}")
            return text
        inverse = {ko: en for en, ko in table.items()}
        if text not in inverse:
            raise VerificationError(f"unknown {col} {text!r}")
        return inverse[text]
    return text


def parse_tables(question, lang):
    lines = question.split("\n")
    tables = []
    for title in _TITLES[lang]:
        if lines.count(title) != 1:
            raise VerificationError(f"table {title} missing or repeated")
        i = lines.index(title)
        header = lines[i + 1].split(" | ")
        cols = header if lang == "en" else [_KO_TO_COL.get(h, h) for h in header]
        if set(lines[i + 2]) != {"-"}:
            raise VerificationError("missing header rule")
        rows = []
        k = i + 3
        while k < len(lines) and lines[k].strip():
            cells = lines[k].split(" | ")
            if len(cells) != len(cols):
                raise VerificationError(f"row width mismatch in {title}")
            rows.append({c: _decode(c, v, lang) for c, v in zip(cols, cells, strict=True)})
            k += 1
        tables.append((cols, rows))
    return tables


def _expected_rows(inst, lang):
    """The instance tables in the same shape as the parsed ones (printed columns only)."""
    li = 0 if lang == "en" else 1
    out = []
    for t in ("products", "orders", "customers"):
        cols = inst["columns"][t]
        rows = []
        for r in inst[t]:
            row = {}
            for c in cols:
                if t == "orders" and c == "product":
                    row[c] = inst["products"][r["product"] - 1]["name"][li]
                elif t == "orders" and c == "customer_id":
                    row[c] = inst["customers"][r["customer"] - 1]["customer_id"]
                elif c in ("product", "name"):
                    row[c] = r["name"][li]
                else:
                    row[c] = r[c]
            rows.append(row)
        out.append((cols, rows))
    return out


# ---- tie-aware selection helpers ----------------------------------------------------------------
def _at_rank(d, k):
    """Every key that can be at 1-based rank k (descending) under some tie-break order."""
    out = []
    for key, v in d.items():
        above = sum(1 for x in d.values() if x > v)
        ties = sum(1 for x in d.values() if x == v)
        if above < k <= above + ties:
            out.append(key)
    return out


def _top_sets(d, k):
    if len(d) <= k:
        return [frozenset(d)]
    kth = sorted(d.values(), reverse=True)[k - 1]
    sure = [key for key, v in d.items() if v > kth]
    border = sorted((key for key, v in d.items() if v == kth), key=str)
    return [frozenset(sure) | frozenset(c) for c in combinations(border, k - len(sure))]


def _exact(num, den):
    """num / den as an int when exact, else as a Fraction."""
    return num // den if num % den == 0 else Fraction(num, den)


def _sum(rows, f):
    return sum(f(r) for r in rows)


def _by(rows, key, f=None):
    g = {}
    for r in rows:
        g.setdefault(key(r), []).append(r)
    if f is None:
        return g
    return {k: f(v) for k, v in g.items()}


def _trunc(x):
    return math.floor(x)  # all truncated quantities are non-negative


def _median_mean_mid(vals):
    s = sorted(vals)
    n = len(s)
    if n % 2:
        return s[n // 2]
    return _trunc(Fraction(s[n // 2 - 1] + s[n // 2], 2))


def _answers(tid, prm, products, orders, customers):
    """Set of answers (ints or codes) admitted by the question over parsed tables."""
    prod = {p["product"]: p for p in products}
    cust = {c["customer_id"]: c for c in customers}
    rows = []
    for o in orders:
        p, c = prod[o["product"]], cust[o["customer_id"]]
        rows.append(
            {
                "prod": o["product"],
                "cat": p["category"],
                "price": p["price"],
                "disc": p["discount"],
                "stock": p["stock"],
                "qty": o["quantity"],
                "region": o["region"],
                "quarter": o["quarter"],
                "cust": o["customer_id"],
                "mem": c["membership"],
                "year": c["join_year"],
                "rev": p["price"] * o["quantity"],
                "drev": _exact(p["price"] * (100 - p["discount"]) * o["quantity"], 100),
            }
        )

    def rev(rs):
        return Fraction(_sum(rs, lambda r: r["rev"]))

    def drev(rs):
        return Fraction(_sum(rs, lambda r: r["drev"]))

    def mean(xs):
        xs = list(xs)
        return Fraction(sum(xs), len(xs))

    def pct(a, b):
        if b == 0:
            raise VerificationError("zero denominator")
        return _trunc(Fraction(a) * 100 / b)

    if tid == "L-e6":
        return {drev([r for r in rows if r["cat"] == prm["C"]])}
    if tid == "L-e7":
        qty = _by(rows, lambda r: r["cat"], lambda rs: sum(r["qty"] for r in rs))
        res = set()
        for cats in _top_sets(qty, 3):
            stock = {p["product"]: p["stock"] for p in products if p["category"] in cats}
            res |= {prod[name]["discount"] for name in _at_rank(stock, 1)}
        return res
    if tid == "L-e8":
        cnt = _by(rows, lambda r: r["region"], len)
        return {drev([r for r in rows if r["region"] == reg]) for reg in _at_rank(cnt, 1)}
    if tid == "C-e6":
        m = _median_mean_mid([r["qty"] for r in rows])
        return {rev([r for r in rows if r["qty"] > m])}
    if tid == "C-e7":
        m = _trunc(mean(p["price"] for p in products))
        return {
            sum(
                _exact(p["price"] * (100 - p["discount"]) * p["stock"], 100)
                for p in products
                if p["price"] > m
            )
        }
    if tid == "C-e8":
        avg = _by(products, lambda p: p["category"], lambda ps: mean(p["discount"] for p in ps))
        return {sum(1 for r in rows if r["cat"] == c) for c in _at_rank(avg, 1)}
    if tid == "A-e5":
        return {rev([r for r in rows if r["region"] == prm["R"]])}
    if tid == "A-e6":
        return {rev(rows) - drev(rows)}
    if tid == "A-e7":
        m = _median_mean_mid([p["stock"] for p in products])
        return {rev([r for r in rows if r["stock"] > m])}
    if tid == "M-e6":
        return {sum(1 for r in rows if r["cat"] == prm["C"] and r["quarter"] == prm["Q"])}
    if tid == "M-e7":
        return {drev([r for r in rows if r["region"] == prm["R"]])}
    if tid == "M-e8":
        m = _trunc(mean(p["price"] for p in products))
        return {sum(1 for r in rows if r["region"] == prm["R"] and r["price"] > m)}
    if tid == "L-m5":
        nprod = _by(rows, lambda r: r["cat"], lambda rs: len({r["prod"] for r in rs}))
        return {rev([r for r in rows if r["cat"] == c]) for c in _at_rank(nprod, 2)}
    if tid in ("L-m6", "A-m1"):
        m = _trunc(mean(r["qty"] for r in rows))
        sel = [r for r in rows if r["qty"] > m]
        return {rev(sel) if tid == "L-m6" else drev(sel)}
    if tid == "C-m5":
        cnt = _by(rows, lambda r: r["quarter"], len)
        out = set()
        for q in _at_rank(cnt, 1):
            qs = [r for r in rows if r["quarter"] == q]
            out.add(pct(rev([r for r in qs if r["mem"] == "Gold"]), rev(qs)))
        return out
    if tid == "C-m6":
        a = _trunc(rev(rows) / sum(r["qty"] for r in rows))
        b = _trunc(mean(p["price"] for p in products))
        return {abs(a - b)}
    if tid == "A-m5":
        per = _by(rows, lambda r: r["cat"], rev)
        return {max(per.values()) - min(per.values())}
    if tid == "A-m6":
        per = [drev([r for r in rows if r["quarter"] == q]) for q in (1, 2, 3, 4)]
        return {max(per) - min(per)}
    if tid == "M-m4":
        gold = [r for r in rows if r["mem"] == "Gold"]
        nprod = _by(gold, lambda r: r["cat"], lambda rs: len({r["prod"] for r in rs}))
        return set(_at_rank(nprod, 1))
    if tid == "M-m5":
        cnt = _by(rows, lambda r: r["cat"], len)
        return {drev([r for r in rows if r["cat"] == c]) for c in _at_rank(cnt, 1)}
    if tid == "M-m6":
        rs = [r for r in rows if r["region"] == prm["R"]]
        return {sum(1 for r in rs if r["mem"] != "Gold") - sum(1 for r in rs if r["mem"] == "Gold")}
    if tid == "L-h1":
        spend = _by(rows, lambda r: r["cust"], rev)
        avg = mean(spend.values())
        above = [r for r in rows if spend[r["cust"]] > avg]
        ncat = _by(above, lambda r: r["cust"], lambda rs: (len({r["cat"] for r in rs}), spend[rs[0]["cust"]]))
        return {cust[c]["region"] for c in _at_rank(ncat, 2)}
    if tid == "L-h2":
        per = _by(rows, lambda r: r["cust"])
        avg = {c: rev(rs) / len(rs) for c, rs in per.items() if len(rs) >= 3}
        return {cust[c]["membership"] for c in _at_rank(avg, 2)}
    if tid == "L-h4":
        old = [r for r in rows if r["year"] < 2021]
        avg = _by(old, lambda r: r["cust"], lambda rs: rev(rs) / len(rs))
        out = set()
        for c in _at_rank(avg, 1):
            qty = _by(
                [r for r in old if r["cust"] == c], lambda r: r["cat"], lambda rs: sum(r["qty"] for r in rs)
            )
            for cat in _at_rank(qty, 1):
                out.add(_trunc(mean(p["stock"] for p in products if p["category"] == cat)))
        return out
    if tid == "L-h5":
        new = [r for r in rows if r["year"] >= 2021]
        spend = _by(new, lambda r: r["cust"], rev)
        out = set()
        for c in _at_rank(spend, 1):
            qty = _by(
                [r for r in new if r["cust"] == c], lambda r: r["cat"], lambda rs: sum(r["qty"] for r in rs)
            )
            out |= set(_at_rank(qty, 1))
        return out
    if tid == "C-h1":
        avg = _by(products, lambda p: p["category"], lambda ps: mean(p["price"] for p in ps))
        return {_trunc(mean(avg.values()))}
    if tid == "C-h2":

        def x(rs):
            per = _by(rs, lambda r: r["cat"], lambda g: rev(g) / len(g))
            return _trunc(mean(per.values()))

        return {abs(x([r for r in rows if r["mem"] == "Gold"]) - x(rows))}
    if tid == "C-h3":
        per = []
        for q in (1, 2, 3, 4):
            qs = [r for r in rows if r["quarter"] == q]
            per.append(pct(drev(qs), rev(qs)) if qs else 0)
        return {abs(max(per) - pct(drev(rows), rev(rows)))}
    if tid == "C-h4":
        new = Fraction(0) + _sum(
            rows, lambda r: _exact(r["price"] * (100 - max(0, r["disc"] - 5)) * r["qty"], 100)
        )
        return {abs(new - drev(rows))}
    if tid == "C-h5":
        per = _by(rows, lambda r: r["quarter"], lambda rs: rev(rs) / len(rs))
        return {abs(_trunc(mean(per.values())) - _trunc(rev(rows) / len(rows)))}
    if tid == "C-h6":
        per = list(_by(rows, lambda r: r["cat"], rev).values())
        mu = mean(per)
        var = mean((x - mu) ** 2 for x in per)
        # truncate(100 * sqrt(var) / mu) exactly: floor(sqrt(10000 * var / mu^2)).
        return {math.isqrt(_trunc(10000 * var / (mu * mu)))}
    if tid == "A-h2":
        cells = _by(rows, lambda r: (r["mem"], r["cat"]), rev)
        return {_trunc(max(cells.values()) * 100 / min(cells.values()))}
    if tid == "A-h3":
        per = _by(
            rows, lambda r: r["region"], lambda rs: drev(rs) - drev([r for r in rs if r["year"] >= 2021])
        )
        return {max(per.values())}
    if tid == "A-h4":
        revs = sorted(r["rev"] for r in rows)
        med = revs[len(revs) // 2]
        return {pct(sum(x for x in revs if x > med), sum(revs))}
    if tid == "A-h5":
        per = _by(rows, lambda r: r["cat"], lambda rs: pct(drev(rs), rev(rs)))
        return {max(per.values()) - min(per.values())}
    if tid == "M-h2":
        spend = _by(rows, lambda r: r["cust"], rev)
        s = sorted(spend.values())
        med = s[len(s) // 2]

        def share(rs):
            return pct(rev([r for r in rs if r["disc"] >= 15]), rev(rs))

        a = [r for r in rows if spend[r["cust"]] > med]
        b = [r for r in rows if spend[r["cust"]] <= med]
        return {abs(share(a) - share(b))}
    if tid == "M-h4":
        per_region = _by(rows, lambda r: r["region"], rev)
        spend = _by(rows, lambda r: r["cust"], rev)
        out = set()
        for reg in _at_rank(per_region, 1):
            for top2 in _top_sets(spend, 2):
                rs = [r for r in rows if r["region"] == reg and r["cust"] not in top2]
                out.add(_trunc(rev(rs) / len(rs)))
        return out
    if tid == "M-h5":
        cnt = _by(rows, lambda r: r["region"], len)
        spend = _by(rows, lambda r: r["cust"], rev)
        out = set()
        for reg in _at_rank(cnt, 3):
            inside = _by([r for r in rows if r["region"] == reg], lambda r: r["cust"], rev)
            for c in _at_rank(inside, 1):
                out.add(pct(inside[c], spend[c]))
        return out
    if tid == "M-h6":
        a = [r["rev"] for r in rows if r["mem"] in ("Gold", "Silver")]
        b = [r["rev"] for r in rows if r["mem"] in ("Bronze", "None")]
        return {_trunc(mean(a) * 100 / mean(b))}
    if tid == "L-e1":
        return {rows[prm["O"] - 1]["drev"]}
    if tid in ("L-e2", "L-m1"):
        f = "qty" if tid == "L-e2" else "rev"
        tot = _by(rows, lambda r: r["prod"], lambda rs: sum(r[f] for r in rs))
        return {prod[name]["category"] for name in _at_rank(tot, 2)}
    if tid == "L-e3":
        return {sum(1 for r in rows if r["cat"] == prm["C"])}
    if tid == "L-e4":
        return {_trunc(mean(r["qty"] for r in rows if r["cat"] == prm["C"]))}
    if tid == "L-e5":
        return {cust[rows[prm["O"] - 1]["cust"]]["region"]}
    if tid in ("C-e1", "A-e3"):
        return {rev([r for r in rows if r["cat"] == prm["C"]])}
    if tid == "C-e2":
        return {
            sum(
                _exact(p["price"] * (100 - p["discount"]) * p["stock"], 100)
                for p in products
                if p["category"] == prm["C"]
            )
        }
    if tid == "C-e3":
        return {_trunc(mean(p["price"] for p in products if p["category"] == prm["C"]))}
    if tid == "C-e4":
        return {sum(r["qty"] for r in rows if r["quarter"] == prm["Q"])}
    if tid == "C-e5":
        return {sum(1 for r in rows if r["disc"] >= 10)}
    if tid == "A-e1":
        return {rev(rows)}
    if tid == "A-e2":
        return {drev(rows)}
    if tid == "A-e4":
        return {rev([r for r in rows if r["qty"] > prm["t"]])}
    if tid == "M-e1":
        return {sum(1 for r in rows if r["region"] == prm["R"] and r["cat"] == prm["C"])}
    if tid == "M-e2":
        return {sum(r["qty"] for r in rows if r["region"] == prm["R"] and r["quarter"] == prm["Q"])}
    if tid == "M-e3":
        return {rev([r for r in rows if r["region"] == prm["R"]])}
    if tid == "M-e4":
        return {sum(r["qty"] for r in rows if r["mem"] == "Gold")}
    if tid == "M-e5":
        return {rev([r for r in rows if r["region"] == prm["R"] and r["cat"] == prm["C"]])}
    if tid == "L-m2":
        inside = _by([r for r in rows if r["region"] == prm["R"]], lambda r: r["cust"], rev)
        return set(_at_rank(inside, 1))
    if tid == "L-m3":
        qty = _by(
            [r for r in rows if r["mem"] == prm["G"]],
            lambda r: r["prod"],
            lambda rs: sum(r["qty"] for r in rs),
        )
        return {prod[name]["discount"] for name in _at_rank(qty, 1)}
    if tid == "L-m4":
        qs = [r for r in rows if r["quarter"] == prm["Q"]]
        per = _by(qs, lambda r: r["prod"], rev)
        return {
            min(cust[r["cust"]]["join_year"] for r in qs if r["prod"] == name) for name in _at_rank(per, 1)
        }
    if tid == "C-m1":
        return {pct(rev([r for r in rows if r["cat"] == prm["C"]]), rev(rows))}
    if tid == "C-m2":
        spend = _by(rows, lambda r: r["cust"], rev)
        avg = mean(spend.values())
        return {sum(1 for x in spend.values() if x > avg)}
    if tid == "C-m3":
        return {pct(rev([r for r in rows if r["mem"] == prm["G"]]), rev(rows))}
    if tid == "C-m4":
        m = _median_mean_mid([p["stock"] for p in products])
        return {pct(rev([r for r in rows if r["stock"] > m]), rev(rows))}
    if tid in ("A-m2", "M-m2"):
        per = _by(rows, lambda r: r["region"], rev)
        return {per[reg] for reg in _at_rank(per, 1 if tid == "A-m2" else 2)}
    if tid == "A-m3":
        return {rev([r for r in rows if r["mem"] == "Gold"]) - rev([r for r in rows if r["mem"] == "Silver"])}
    if tid == "A-m4":
        return {drev([r for r in rows if r["quarter"] == prm["Q"]])}
    if tid == "M-m1":
        qty = _by(
            [r for r in rows if r["cat"] == prm["C"]],
            lambda r: r["region"],
            lambda rs: sum(r["qty"] for r in rs),
        )
        return set(_at_rank(qty, 1))
    if tid == "M-m3":
        return set(_at_rank(_by(rows, lambda r: r["quarter"], len), 1))
    if tid == "L-h3":
        per = _by(rows, lambda r: r["cat"], rev)
        low = {c: -v for c, v in per.items()}
        out = set()
        for cats in _top_sets(low, 3):
            sel = [r for r in rows if r["cat"] in cats]
            avgq = _by(sel, lambda r: r["prod"], lambda rs: mean(r["qty"] for r in rs))
            for name in _at_rank(avgq, 1):
                q = _by(
                    [r for r in rows if r["prod"] == name],
                    lambda r: r["cust"],
                    lambda rs: sum(r["qty"] for r in rs),
                )
                out |= {cust[c]["membership"] for c in _at_rank(q, 1)}
        return out
    if tid == "A-h1":
        return {_trunc(Fraction(sum(r["rev"] * r["disc"] for r in rows)) / rev(rows))}
    if tid == "A-h6":
        a = [_exact(p["price"] * (100 - p["discount"]), 100) for p in products if p["discount"] > 0]
        b = [p["price"] for p in products if p["discount"] == 0]
        return {abs(_trunc(mean(a)) - _trunc(mean(b)))}
    if tid == "M-h1":
        spend = _by(rows, lambda r: r["cust"], rev)
        return {
            rev([r for r in rows if r["region"] == prm["R"] and r["cust"] not in top3])
            for top3 in _top_sets(spend, 3)
        }
    if tid == "M-h3":
        gold = [r for r in rows if r["mem"] == "Gold"]
        return {pct(rev([r for r in gold if r["cat"] == prm["C"]]), rev(gold))}
    raise VerificationError(f"unknown template {tid}")


_TEXT_FIELD = {
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


def _shown_values(tid, products, orders):
    """The helper values a question prints (recomputed independently)."""
    if tid in ("C-e6",):
        return [_median_mean_mid([o["quantity"] for o in orders])]
    if tid in ("A-e7", "C-m4"):
        return [_median_mean_mid([p["stock"] for p in products])]
    if tid in ("C-e7", "M-e8"):
        return [_trunc(Fraction(sum(p["price"] for p in products), len(products)))]
    if tid in ("L-m6", "A-m1"):
        return [_trunc(Fraction(sum(o["quantity"] for o in orders), len(orders)))]
    return []


def verify_item(item, inst):
    lang = item["lang"]
    q = item["question"]
    parsed = parse_tables(q, lang)
    if parsed != _expected_rows(inst, lang):
        raise VerificationError("tables in the question differ from the instance")
    (pc, products), (_oc, orders), (_cc, customers) = parsed
    names = [p["product"] for p in products]
    ids = [c["customer_id"] for c in customers]
    if len(set(names)) != len(names) or len(set(ids)) != len(ids):
        raise VerificationError("join keys are not unique")
    if any(o["product"] not in set(names) or o["customer_id"] not in set(ids) for o in orders):
        raise VerificationError("dangling join key")
    tid = inst["template"]
    question_line = next((ln for ln in q.split("\n") if ln.startswith(("Question: ", "질문: "))), "")
    for value in _shown_values(tid, products, orders):
        if f" {value}" not in question_line:
            raise VerificationError(f"shown helper value {value} missing from the question")
    named = re.findall(r"ORD-\d+", question_line)
    if "O" in inst["params"] and named != [orders[inst["params"]["O"] - 1]["order_id"]]:
        raise VerificationError("the named order is not the one the instance uses")
    answers = _answers(tid, inst["params"], products, orders, customers)
    if len(answers) != 1:
        raise VerificationError(f"ambiguous under ties: {sorted(map(str, answers))}")
    (value,) = answers
    if inst["answer_type"] == "number":
        if isinstance(value, Fraction):
            if value.denominator != 1:
                raise VerificationError(f"non-integer answer {value}")
            value = value.numerator
        expected = str(value)
    else:
        field = _TEXT_FIELD[tid]
        if field == "name":
            expected = next(c["name"] for c in customers if c["customer_id"] == value)
        elif field == "quarter":
            expected = V.QUARTERS[value][0 if lang == "en" else 1]
        else:
            expected = value if lang == "en" else _CODED[field][value]
        if value == "None":
            raise VerificationError("answer is the membership 'None'")
    if item["answer"] != expected:
        raise VerificationError(
            f"gold {item['answer']!r} disagrees with independent recomputation {expected!r}"
        )
