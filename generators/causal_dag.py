"""causal_dag (direct translation, EN + KO): event times in a delayed AND/OR causal network.

The solver is shown a list of events E1..En, a shuffled list of causal rules (one or more prerequisite
events -> one target event, with a delay in minutes; a multi-prerequisite rule is an AND or an OR gate),
and one trigger event E1 that occurs at a given minute. Semantics stated in the prompt:

- a single-prerequisite rule fires at time(prerequisite) + delay;
- an AND rule fires at max(times of its prerequisites) + delay (it needs all of them);
- an OR rule fires at min(times of its prerequisites that occur) + delay;
- an event occurs at the earliest time any of its rules fires (first occurrence only); nothing but the
  trigger happens spontaneously.

The gold is the least fixed point of these rules. The generator computes it with one topological pass
in ID order (prerequisites always have smaller IDs); ``check`` parses events, rules, trigger and query
back from the question text and recomputes every time by Bellman-Ford-style repeated relaxation from
"never" until nothing changes (no use of the ID order or the instance), after checking that the parsed
rule graph is acyclic and equals the instance's rules.

Queries: ``occurrence_time`` (minute of T), ``time_gap`` (time(T) - time(C), C strictly earlier than T,
so the gold is > 0) and ``count_by_target_time`` (events with time <= time(T), counting the trigger, T
and any event at exactly T's minute; the prompt says so explicitly).

Instance schema (JSON, identical for EN and KO)::

    {"n": int,                                  # events E1..En
     "names": {"en": [str]*n, "ko": [str]*n},   # names[lang][i-1] is the name of E<i>
     "descs": {"en": [str]*n, "ko": [str]*n},   # one-line descriptions
     "rules": [{"target": int, "prereqs": [int, ...] (sorted), "gate": "single"|"and"|"or",
                "delay": int}, ...],            # in display order (already shuffled)
     "trigger": 1, "trigger_time": int,
     "query": {"type": "occurrence_time"|"time_gap"|"count_by_target_time",
               "target": int, "compare": int|null}}

Levers (``levers`` of each tier) and the recalibration. The reference levers at HEAD are
easy n 25-31 / density 0.62 / max prereq 3 / P(AND) 0.47 / delay 10-60 / slice 0.56-0.86 / weights
occ-gap-count .30/.25/.45; medium 40-46 / 0.88 / 4 / 0.63 / 20-140 / 0.70-0.94 / .03/.22/.75; hard 46-58 /
0.95 / 5 / 0.64 / 30-240 / 0.64-0.94 / 0/.20/.80. Those tiers were calibrated against wrong golds (the
reference's event queue leaves stale times; 21 / 38 / 57 % of its golds disagree with its own stated
rules). With rule-consistent golds the calibration model would score about 0.99 / 0.81 / 0.56 (EN) and
0.98 / 0.77 / 0.65 (KO) on the reference levers, so each tier moves up by roughly one reference tier:

- easy   = the reference *medium* levers (measured 0.81 / 0.77 with correct golds; target 0.75), with a
  slightly higher target slice so the answer depends on more of the graph;
- medium = the reference *hard* levers made a little larger (n 52-60; measured 0.56 / 0.65 on n 46-58,
  target 0.50);
- hard   = a new, larger and denser tier (n 70-80, a second rule for every event, up to 5 prerequisites,
  delays 30-300, the target drawn from the 78-97 % quantile slice of event times, 90 % count queries), because nothing
  in the reference is hard enough for the 0.25 target once the golds are right.

These values are an extrapolation from the reference measurements, not a new model calibration.

Other departures from the reference (and why):
- events are ordered and listed numerically (E1, E2, ..., E10), not as strings (E1, E10, E11, ..., E2);
- repeated names (when a category pool of 10 is exhausted) get a suffix ``#2``, ``#3`` ... so no two
  events share a displayed name;
- OR wording says "whichever prerequisite occurs first" (the KO reference could be read as "the
  first-listed prerequisite");
- count queries state that the trigger, the target and events at the target's minute are counted;
- ``latest_event_time`` (weight 0 in the reference) is dropped.

Scoring follows the reference judge: the payload of the last ``Answer:``/``정답:`` line (else the whole
response); a bare integer there is the answer; otherwise the reference's fallback patterns in order.
Unlike the reference we also accept numerically equal forms of a bare payload (``1,234``, ``120.0``).
"""

from __future__ import annotations

import re

from .base import Puzzle, Reject, VerificationError
from .extract import last_label_payload

# (EN name, EN description, KO name, KO description); four categories of ten.
_POOLS = [
    [  # technical
        ("Power outage", "electricity to the main building stops", "정전", "본관 건물의 전기 공급이 끊김"),
        ("Server crash", "the main application server goes down", "서버 다운", "주 애플리케이션 서버가 멈춤"),
        (
            "Network failure",
            "the office network loses connectivity",
            "네트워크 장애",
            "사무실 네트워크 연결이 끊어짐",
        ),
        (
            "Disk full",
            "a storage volume runs out of space",
            "디스크 용량 초과",
            "저장 장치의 여유 공간이 바닥남",
        ),
        (
            "Database lock",
            "the order database stops accepting writes",
            "데이터베이스 잠김",
            "주문 데이터베이스에 쓰기가 막힘",
        ),
        (
            "Memory leak",
            "a service slowly uses up its memory",
            "메모리 누수",
            "한 서비스가 메모리를 계속 잡아먹음",
        ),
        (
            "Software update",
            "a new software version is rolled out",
            "소프트웨어 업데이트",
            "새 소프트웨어 버전이 배포됨",
        ),
        (
            "Security alert",
            "the monitoring system flags an intrusion",
            "보안 경보",
            "감시 시스템이 침입 징후를 알림",
        ),
        ("Backup failure", "the nightly backup job aborts", "백업 실패", "야간 백업 작업이 중단됨"),
        ("Cooling failure", "the server room air conditioning stops", "냉각 장치 고장", "서버실 냉방이 멈춤"),
    ],
    [  # business
        ("Order received", "a large customer order arrives", "주문 접수", "대량 고객 주문이 들어옴"),
        ("Payment approved", "the customer's payment clears", "결제 승인", "고객의 결제가 승인됨"),
        ("Invoice sent", "an invoice is mailed to the client", "청구서 발송", "거래처에 청구서가 발송됨"),
        ("Promotion launched", "a discount campaign goes live", "프로모션 시작", "할인 행사가 시작됨"),
        ("Contract signed", "a supplier contract is signed", "계약 체결", "공급 업체와 계약이 체결됨"),
        ("Price change", "list prices are updated", "가격 변경", "판매 가격이 조정됨"),
        (
            "Stock reorder",
            "inventory is reordered from the supplier",
            "재고 재주문",
            "공급 업체에 재고를 다시 주문함",
        ),
        ("Customer complaint", "a customer files a complaint", "고객 불만 접수", "고객이 불만을 제기함"),
        ("Refund issued", "money is returned to a customer", "환불 처리", "고객에게 대금이 환불됨"),
        (
            "Report published",
            "the weekly sales report is released",
            "보고서 발행",
            "주간 판매 보고서가 공개됨",
        ),
    ],
    [  # environmental
        ("Heavy rain", "a downpour starts over the city", "폭우", "도시에 많은 비가 내리기 시작함"),
        ("Road flooding", "the access road is under water", "도로 침수", "진입 도로가 물에 잠김"),
        ("Strong wind", "gusts exceed the safety limit", "강풍", "돌풍이 안전 기준을 넘음"),
        ("Heat wave", "temperatures stay extremely high", "폭염", "기온이 매우 높은 상태가 이어짐"),
        ("Storm warning", "the weather service issues a warning", "폭풍 경보", "기상청이 경보를 발령함"),
        ("Snowfall", "heavy snow covers the area", "폭설", "많은 눈이 지역을 덮음"),
        ("Dense fog", "visibility drops sharply", "짙은 안개", "가시거리가 크게 줄어듦"),
        ("Power line damage", "an overhead line is damaged", "전선 손상", "가공 전선이 손상됨"),
        ("River rising", "the nearby river level climbs", "하천 수위 상승", "근처 하천의 수위가 올라감"),
        ("Lightning strike", "lightning hits the site", "낙뢰", "현장에 벼락이 떨어짐"),
    ],
    [  # operational
        ("Staff shortage", "too few workers are on site", "인력 부족", "현장 근무 인원이 모자람"),
        ("Shift change", "the work shift is rearranged", "교대 변경", "근무 교대 일정이 바뀜"),
        ("Delivery delay", "outgoing deliveries fall behind", "배송 지연", "출고 배송이 늦어짐"),
        ("Machine stop", "a production machine halts", "기계 정지", "생산 설비 한 대가 멈춤"),
        ("Inspection start", "a safety inspection begins", "점검 시작", "안전 점검이 시작됨"),
        ("Warehouse closure", "the warehouse is closed", "창고 폐쇄", "창고 출입이 통제됨"),
        ("Truck dispatch", "a delivery truck leaves", "트럭 출발", "배송 트럭이 출발함"),
        ("Line restart", "the production line restarts", "라인 재가동", "생산 라인이 다시 돌아감"),
        ("Overtime approval", "extra working hours are approved", "초과 근무 승인", "추가 근무가 승인됨"),
        ("Safety drill", "an evacuation drill is held", "안전 훈련", "대피 훈련이 실시됨"),
    ],
]

QUERY_TYPES = ("occurrence_time", "time_gap", "count_by_target_time")


class CausalDag(Puzzle):
    name = "causal_dag"
    version = "1"
    levers = {
        "easy": {
            "events": [40, 46],
            "edge_density": 0.88,
            "max_prereq": 4,
            "and_probability": 0.63,
            "delay_range": [20, 140],
            "target_quantile": [0.72, 0.94],
            "query_weights": {"occurrence_time": 0.05, "time_gap": 0.22, "count_by_target_time": 0.73},
            "shuffle_rules": True,
            "recalibrated": "reference medium levers (reference easy scores ~0.99 with correct golds)",
        },
        "medium": {
            "events": [52, 60],
            "edge_density": 0.95,
            "max_prereq": 5,
            "and_probability": 0.64,
            "delay_range": [30, 240],
            "target_quantile": [0.70, 0.94],
            "query_weights": {"occurrence_time": 0.0, "time_gap": 0.2, "count_by_target_time": 0.8},
            "shuffle_rules": True,
            "recalibrated": "reference hard levers, larger graphs (reference medium ~0.81 with correct golds)",
        },
        "hard": {
            "events": [70, 80],
            "edge_density": 1.0,
            "max_prereq": 5,
            "and_probability": 0.65,
            "delay_range": [30, 300],
            "target_quantile": [0.78, 0.97],
            "query_weights": {"occurrence_time": 0.0, "time_gap": 0.1, "count_by_target_time": 0.9},
            "shuffle_rules": True,
            "recalibrated": "new larger/denser tier (reference hard ~0.56-0.65 with correct golds)",
        },
    }

    # ---- sampling ----------------------------------------------------------------------------
    def sample(self, rng, levers, lang):
        lo, hi = levers["events"]
        n = rng.randint(lo, hi)
        names = {"en": [], "ko": []}
        descs = {"en": [], "ko": []}
        remaining = [list(range(len(pool))) for pool in _POOLS]
        used = {}
        for i in range(1, n + 1):
            cat = i % 4
            if remaining[cat]:
                k = remaining[cat].pop(rng.randrange(len(remaining[cat])))
            else:
                k = rng.randrange(len(_POOLS[cat]))
            used[(cat, k)] = used.get((cat, k), 0) + 1
            suffix = "" if used[(cat, k)] == 1 else f" #{used[(cat, k)]}"
            en, en_d, ko, ko_d = _POOLS[cat][k]
            names["en"].append(en + suffix)
            names["ko"].append(ko + suffix)
            descs["en"].append(en_d)
            descs["ko"].append(ko_d)

        rules = []
        d_lo, d_hi = levers["delay_range"]
        for target in range(2, n + 1):
            n_rules = 2 if rng.random() < levers["edge_density"] else 1
            seen = []
            for _ in range(n_rules):
                k = rng.randint(1, min(levers["max_prereq"], target - 1))
                prereqs = sorted(rng.sample(range(1, target), k))
                if prereqs in seen:
                    continue
                seen.append(prereqs)
                if k == 1:
                    gate = "single"
                else:
                    gate = "and" if rng.random() < levers["and_probability"] else "or"
                rules.append(
                    {"target": target, "prereqs": prereqs, "gate": gate, "delay": rng.randint(d_lo, d_hi)}
                )

        trigger_time = rng.randint(0, 60)
        times = _topological_times(n, rules, 1, trigger_time)
        candidates = sorted((t, e) for e, t in times.items() if e != 1)
        m = len(candidates)
        q_lo, q_hi = levers["target_quantile"]
        start = int(m * q_lo)
        stop = min(m, max(start + 1, int(m * q_hi)))
        target = candidates[rng.randrange(start, stop)][1]

        weights = levers["query_weights"]
        qtype = rng.choices(QUERY_TYPES, weights=[weights[q] for q in QUERY_TYPES])[0]
        compare = None
        if qtype == "time_gap":
            earlier = [e for t, e in candidates if t < times[target]]
            if not earlier:
                raise Reject("no event strictly earlier than the target")
            compare = rng.choice(earlier)
        if levers["shuffle_rules"]:
            rng.shuffle(rules)
        return {
            "n": n,
            "names": names,
            "descs": descs,
            "rules": rules,
            "trigger": 1,
            "trigger_time": trigger_time,
            "query": {"type": qtype, "target": target, "compare": compare},
        }

    # ---- gold --------------------------------------------------------------------------------
    def _times(self, instance):
        return _topological_times(
            instance["n"], instance["rules"], instance["trigger"], instance["trigger_time"]
        )

    def gold(self, instance, lang):
        return str(_answer(self._times(instance), instance["query"]))

    def solution(self, instance, lang):
        times = self._times(instance)
        label = "E{} ({}): minute {}" if lang == "en" else "E{} ({}): {}분"
        lines = [
            label.format(e, instance["names"][lang][e - 1], t)
            for e, t in sorted(times.items(), key=lambda x: (x[1], x[0]))
        ]
        lines.append(("Answer: " if lang == "en" else "정답: ") + self.gold(instance, lang))
        return "\n".join(lines)

    # ---- rendering ---------------------------------------------------------------------------
    def render(self, instance, lang, levers):
        names = instance["names"][lang]
        descs = instance["descs"][lang]

        def ev(i):
            return f"E{i} ({names[i - 1]})"

        t = _TEXT[lang]
        out = [t["intro"], "", t["events"]]
        for i in range(1, instance["n"] + 1):
            out.append(f"E{i}: {names[i - 1]}")
            out.append(f"   ({descs[i - 1]})")
        out += ["", t["rules"]]
        for r in instance["rules"]:
            p = r["prereqs"]
            if r["gate"] == "single":
                out.append(f"- {ev(p[0])} -> {ev(r['target'])}: {t['delay'].format(r['delay'])}")
            else:
                word = t["and"] if r["gate"] == "and" else t["or"]
                lhs = "[" + f" {word} ".join(f"E{x}" for x in p) + "]"
                out.append(f"- {lhs} -> {ev(r['target'])}: {t['delay'].format(r['delay'])}")
                note = t["and_note"] if r["gate"] == "and" else t["or_note"]
                out.append("  " + note.format(", ".join(f"E{x}" for x in p)))
        out += ["", t["how"], "", t["initial"].format(ev(instance["trigger"]), instance["trigger_time"])]
        q = instance["query"]
        if q["type"] == "occurrence_time":
            out.append(t["q_occ"].format(ev(q["target"])))
        elif q["type"] == "time_gap":
            out.append(t["q_gap_ref"].format(ev(q["compare"])))
            out.append(
                t["q_gap"].format(ev(q["compare"]), ev(q["target"]), f"E{q['target']}", f"E{q['compare']}")
            )
        else:
            out.append(t["q_count"].format(ev(q["target"]), f"E{q['target']}"))
        out += ["", t["format"]]
        return "\n".join(out)

    # ---- verification ------------------------------------------------------------------------
    def check(self, item, instance):
        parsed = _parse_question(item["question"], item["lang"])
        ours = sorted((r["target"], tuple(r["prereqs"]), r["gate"], r["delay"]) for r in instance["rules"])
        theirs = sorted((tgt, tuple(p), g, d) for tgt, p, g, d in parsed["rules"])
        if ours != theirs:
            raise VerificationError("rules in the question differ from the instance")
        if parsed["n"] != instance["n"]:
            raise VerificationError("event list in the question differs from the instance")
        if (parsed["trigger"], parsed["trigger_time"]) != (instance["trigger"], instance["trigger_time"]):
            raise VerificationError("initial condition in the question differs from the instance")
        q = instance["query"]
        if (parsed["qtype"], parsed["target"], parsed["compare"]) != (q["type"], q["target"], q["compare"]):
            raise VerificationError("question asked differs from the instance query")
        times = _relaxation_times(parsed)
        tgt = parsed["target"]
        if tgt not in times:
            raise VerificationError(f"target E{tgt} never occurs")
        if parsed["qtype"] == "occurrence_time":
            expected = times[tgt]
        elif parsed["qtype"] == "time_gap":
            cmp_ = parsed["compare"]
            if cmp_ not in times or times[cmp_] >= times[tgt]:
                raise VerificationError("compare event does not occur strictly before the target")
            expected = times[tgt] - times[cmp_]
        else:
            expected = sum(1 for v in times.values() if v <= times[tgt])
        if item["answer"] != str(expected):
            raise VerificationError(f"gold {item['answer']!r} disagrees with relaxation result {expected}")

    # ---- scoring -----------------------------------------------------------------------------
    def extract(self, response, answer, lang):
        payload = last_label_payload(response)
        if payload is None:
            payload = response.strip()
        bare = _BARE_NUMBER.fullmatch(payload.strip().strip("*`$ ").strip())
        if bare:
            return _normalise_number(bare.group(0))
        for pattern, pick in _FALLBACKS:
            hits = pattern.findall(payload)
            if hits:
                return _canon(hits[0] if pick == "first" else hits[-1])
        return None

    def matches(self, extracted, answer, lang):
        a, b = extracted.strip(), answer.strip()
        return a.isdigit() and b.isdigit() and _canon(a) == _canon(b)


# ---- the generator's solver: one pass in ID order (prerequisites have smaller IDs) --------------
def _topological_times(n, rules, trigger, trigger_time):
    by_target = {}
    for r in rules:
        by_target.setdefault(r["target"], []).append(r)
    times = {trigger: trigger_time}
    for e in range(1, n + 1):
        best = times.get(e)
        for r in by_target.get(e, []):
            if any(p >= e for p in r["prereqs"]):
                raise ValueError("rule prerequisite not earlier than its target")
            known = [times[p] for p in r["prereqs"] if p in times]
            if r["gate"] == "or":
                fire = min(known) + r["delay"] if known else None
            else:
                fire = max(known) + r["delay"] if len(known) == len(r["prereqs"]) else None
            if fire is not None and (best is None or fire < best):
                best = fire
        if best is not None:
            times[e] = best
    return times


def _answer(times, query):
    t = times[query["target"]]
    if query["type"] == "occurrence_time":
        return t
    if query["type"] == "time_gap":
        return t - times[query["compare"]]
    return sum(1 for v in times.values() if v <= t)


# ---- independent verifier: parse the text, then relax until nothing changes ---------------------
_TEXT = {
    "en": {
        "intro": "Below is a network of events in which one event can cause another after a delay. "
        "Work out when the events happen.",
        "events": "Events (each ID is one distinct event):",
        "rules": "Causal rules (listed in no particular order):",
        "delay": "{} minutes",
        "and": "AND",
        "or": "OR",
        "and_note": "(AND rule: it fires only once all of {} have occurred)",
        "or_note": "(OR rule: it fires as soon as whichever of {} occurs first has occurred)",
        "how": "How the rules work:\n"
        "1. A rule with a single prerequisite fires the stated number of minutes after that prerequisite occurs.\n"
        "2. An AND rule fires the stated number of minutes after the LAST of its prerequisites occurs "
        "(latest prerequisite time + delay); if some prerequisite never occurs, it never fires.\n"
        "3. An OR rule fires the stated number of minutes after the FIRST of its prerequisites occurs "
        "(earliest prerequisite time + delay); prerequisites that never occur are ignored.\n"
        "4. The delay belongs to the whole rule. When a rule fires, its target event occurs at that minute, "
        "unless it has already occurred earlier. An event with several rules occurs at the earliest minute "
        "at which any of its rules fires; only this first occurrence matters.\n"
        "5. Nothing happens spontaneously: only the initial event below starts the chain. All times are "
        "whole minutes counted from minute 0.",
        "initial": "Initial condition: {} occurs at minute {}. No other event occurs unless a rule causes it.",
        "q_occ": "Question: At what minute does {} first occur?",
        "q_gap_ref": "Reference event: {}.",
        "q_gap": "Question: How many minutes after {} first occurs does {} first occur? "
        "(Take the minute at which {} first occurs and subtract the minute at which {} first occurs.)",
        "q_count": "Question: By the minute at which {} first occurs, how many distinct listed events have "
        "occurred? Count the initial event, {} itself, and every event that occurs at exactly that same minute.",
        "format": "Reason step by step, then give the answer as a single integer (no units) on the last line, "
        "in the form:\nAnswer: <integer>",
    },
    "ko": {
        "intro": "다음은 한 사건이 일정 시간이 지난 뒤 다른 사건을 일으키는 사건 관계망입니다. "
        "각 사건이 언제 일어나는지 구하세요.",
        "events": "사건 목록 (ID 하나가 서로 다른 사건 하나입니다):",
        "rules": "인과 규칙 (순서는 의미가 없습니다):",
        "delay": "{}분",
        "and": "그리고",
        "or": "또는",
        "and_note": "(AND 규칙: {} 모두 발생해야만 작동합니다)",
        "or_note": "(OR 규칙: {} 중 어느 것이든 가장 먼저 발생한 사건에 의해 작동합니다)",
        "how": "규칙의 작동 방식:\n"
        "1. 전제 사건이 하나인 규칙은 그 사건이 발생하고 적힌 시간(분)이 지난 시각에 작동합니다.\n"
        "2. AND 규칙은 전제 사건 중 가장 늦게 발생한 사건의 시각에 지연 시간을 더한 시각에 작동합니다. "
        "전제 사건 중 하나라도 발생하지 않으면 작동하지 않습니다.\n"
        "3. OR 규칙은 전제 사건 중 가장 먼저 발생한 사건의 시각에 지연 시간을 더한 시각에 작동합니다. "
        "발생하지 않는 전제 사건은 무시합니다. (목록에서 첫 번째로 적힌 사건이라는 뜻이 아닙니다.)\n"
        "4. 지연 시간은 규칙 전체에 한 번 적용됩니다. 규칙이 작동하면 그 시각에 결과 사건이 발생합니다. "
        "단, 이미 더 일찍 발생했다면 그대로입니다. 규칙이 여러 개인 사건은 그중 가장 이른 작동 시각에 "
        "발생하며, 처음 발생한 시각만 의미가 있습니다.\n"
        "5. 아래 초기 사건 외에는 어떤 사건도 저절로 일어나지 않습니다. 모든 시각은 0분부터 센 정수 분입니다.",
        "initial": "초기 조건: {} 사건은 {}분에 발생합니다. 규칙에 의하지 않고는 다른 사건이 발생하지 않습니다.",
        "q_occ": "질문: {} 사건이 처음 발생하는 시각은 몇 분입니까?",
        "q_gap_ref": "기준 사건: {}.",
        "q_gap": "질문: {} 사건이 처음 발생한 뒤 몇 분 후에 {} 사건이 처음 발생합니까? "
        "({}의 발생 시각에서 {}의 발생 시각을 빼세요.)",
        "q_count": "질문: {} 사건이 처음 발생하는 시각까지 발생한 서로 다른 사건은 모두 몇 개입니까? "
        "초기 사건과 {} 자신, 그리고 바로 그 시각에 함께 발생하는 사건도 모두 셉니다.",
        "format": "단계적으로 풀이한 뒤, 마지막 줄에 단위 없이 정수 하나로 다음 형식으로 답하세요.\n정답: <정수>",
    },
}

_EVENT_LINE = re.compile(r"^E(\d+): .+$", re.MULTILINE)
_RULE_LINE = re.compile(
    r"^- (?:E(\d+) \([^()\n]*\)|\[([^\]\n]*)\]) -> E(\d+) \([^()\n]*\): (\d+)(?: minutes|분)$", re.MULTILINE
)
_ID = re.compile(r"E(\d+)")


def _parse_question(question, lang):
    t = _TEXT[lang]
    ids = [int(x) for x in _EVENT_LINE.findall(question)]
    if ids != list(range(1, len(ids) + 1)) or not ids:
        raise VerificationError("event list is not E1..En")
    rules = []
    for single, multi, target, delay in _RULE_LINE.findall(question):
        if single:
            prereqs, gate = [int(single)], "single"
        else:
            words = multi.split(" ")
            joiners = set(words[1::2])
            if joiners == {t["and"]}:
                gate = "and"
            elif joiners == {t["or"]}:
                gate = "or"
            else:
                raise VerificationError(f"unreadable gate in [{multi}]")
            prereqs = [int(_ID.fullmatch(w).group(1)) for w in words[0::2]]
        rules.append((int(target), sorted(prereqs), gate, int(delay)))
    init_re = {
        "en": r"^Initial condition: E(\d+) \([^()\n]*\) occurs at minute (\d+)\.",
        "ko": r"^초기 조건: E(\d+) \([^()\n]*\) 사건은 (\d+)분에 발생합니다\.",
    }[lang]
    m = re.search(init_re, question, re.MULTILINE)
    if not m:
        raise VerificationError("no initial condition in the question")
    trigger, trigger_time = int(m.group(1)), int(m.group(2))
    qline = [ln for ln in question.splitlines() if ln.startswith(("Question:", "질문:"))]
    if len(qline) != 1:
        raise VerificationError("expected exactly one question line")
    mentioned = [int(x) for x in re.findall(r"E(\d+) \(", qline[0])]
    if "minutes after" in qline[0] or "몇 분 후에" in qline[0]:
        qtype, compare, target = "time_gap", mentioned[0], mentioned[1]
        ref = re.search(r"^(?:Reference event|기준 사건): E(\d+) ", question, re.MULTILINE)
        if not ref or int(ref.group(1)) != compare:
            raise VerificationError("reference event line missing or inconsistent")
    elif "how many distinct" in qline[0] or "몇 개" in qline[0]:
        qtype, compare, target = "count_by_target_time", None, mentioned[0]
    else:
        qtype, compare, target = "occurrence_time", None, mentioned[0]
    return {
        "n": len(ids),
        "rules": rules,
        "trigger": trigger,
        "trigger_time": trigger_time,
        "qtype": qtype,
        "target": target,
        "compare": compare,
    }


def _relaxation_times(parsed):
    """Bellman-Ford-style: start from 'never' everywhere but the trigger and relax every rule until no
    time changes. Acyclicity is checked first (Kahn), so the fixed point is unique."""
    n = parsed["n"]
    indeg = {e: 0 for e in range(1, n + 1)}
    succ = {e: [] for e in range(1, n + 1)}
    for tgt, prereqs, _g, _d in parsed["rules"]:
        for p in prereqs:
            if p not in succ or tgt not in indeg:
                raise VerificationError(f"rule mentions an unknown event E{p}/E{tgt}")
            succ[p].append(tgt)
            indeg[tgt] += 1
    queue = [e for e in indeg if indeg[e] == 0]
    seen = 0
    while queue:
        e = queue.pop()
        seen += 1
        for s in succ[e]:
            indeg[s] -= 1
            if indeg[s] == 0:
                queue.append(s)
    if seen != n:
        raise VerificationError("the rules contain a cycle")
    if any(tgt == parsed["trigger"] for tgt, *_ in parsed["rules"]):
        raise VerificationError("the trigger has an incoming rule")
    inf = float("inf")
    times = [inf] * (n + 1)
    times[parsed["trigger"]] = parsed["trigger_time"]
    for _round in range(n + 2):
        changed = False
        for tgt, prereqs, gate, delay in parsed["rules"]:
            vals = [times[p] for p in prereqs]
            fire = (min(vals) if gate == "or" else max(vals)) + delay
            if fire < times[tgt]:
                times[tgt] = fire
                changed = True
        if not changed:
            break
    else:
        raise VerificationError("relaxation did not converge")
    return {e: int(times[e]) for e in range(1, n + 1) if times[e] != inf}


# ---- scoring helpers ----------------------------------------------------------------------------
_BARE_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.0+)?|\d+(?:\.0+)?")
_FALLBACKS = [
    (re.compile(r"answer\s*[:：]\s*(\d+)", re.IGNORECASE), "first"),
    (re.compile(r"occurs at minute\s+(\d+)", re.IGNORECASE), "last"),
    (re.compile(r"at minute\s+(\d+)", re.IGNORECASE), "last"),
    (re.compile(r"minute\s+(\d+)", re.IGNORECASE), "last"),
    (re.compile(r"(\d+)\s+minutes", re.IGNORECASE), "first"),
    (re.compile(r"\b(\d+)\b"), "last"),
]


def _canon(digits):
    """Integer value of a digit string as a canonical string (no int(): arbitrary length is fine)."""
    return digits.lstrip("0") or "0"


def _normalise_number(s):
    return _canon(s.replace(",", "").split(".")[0])


PUZZLE = CausalDag()
