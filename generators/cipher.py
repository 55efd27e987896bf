"""cipher (script adaptation): decrypt a ciphertext whose keyword is hidden in a mission log.

EN and KO are different puzzles, not translations; one module, language-specific sampling.

EN: a random A-Z plaintext is encrypted with classical letter ciphers (letters A=0 ... Z=25):

* ``VIGENERE``: c_i = (p_i + kw[i mod |kw|]) mod 26, i counted from 0 over the whole current string.
* ``TRANSPOSITION`` (columnar): one column per keyword letter, the text written row by row, the last
  row padded with ``X``; columns read top to bottom in the alphabetical order of their keyword
  letters, repeated letters left to right (stable). The output keeps the padding.

KO: a meaningful Sino-Korean compound noun (precomposed syllables only) is decomposed into
initial/medial/final indices (:mod:`generators.hangul`) and a stack of per-jamo operations is
applied; i is the 0-based position in the *current* string and k_i = kw[i mod |kw|]:

* ``CHO_SHIFT``: initial <- (initial + initial(k_i)) mod 19.
* ``JUNG_SUB``: T = distinct medials of the keyword in order of first appearance, then the other
  medials 0..20 ascending; medial <- T[medial].
* ``JONG_SHIFT``: v = final(k_i) if the key syllable has a final, else initial(k_i) + 1;
  final <- (final + v) mod 28 (0 = no final).
* ``REVERSE``: reverse the syllable order.

Instance schema (JSON)::

    {"lang": "en"|"ko", "plaintext": str, "plaintext_length": int, "keyword": str,
     "keyword_rule": "direct"|"extraction"|"positional", "keyword_position": int (positional only,
     1-based word number in the log line), "label": str, "log_sentences": [str, ...] (in log order),
     "stack": [op, ...] (encryption order), "ciphertext": str,
     EN: "padding": int (pad letters the transposition added; 0 without it),
         "examples": [[plain, cipher], ...];
     KO: "pool": tier name of the answer pool, "pool_size": int}

Levers per tier (reference code at HEAD, spec section 3):

=====  ==========================  ===========  ========  ==========  ===========
lang   stack                       keyword      examples  length      reverse note
=====  ==========================  ===========  ========  ==========  ===========
en e   VIGENERE                    direct       1         20-24       no
en m   VIGENERE                    extraction   2         20-24       yes
en h   TRANSPOSITION -> VIGENERE   positional   10        6-10        yes
ko e   6 ops (no JONG_SHIFT)       positional   0         8           yes
ko m   12 ops                      positional   0         4-6         yes
ko h   12 ops                      extraction   0         6-8         yes
=====  ==========================  ===========  ========  ==========  ===========

KO lengths come from the answer pools (8 / 4-6 / 6-8 syllables), as in the reference code; the
reference docs' ``answer_length`` (8 / 7-9 / 8-10) is dead config and is not used.

Departures from the reference (all deliberate, see spec section 7):

* EN hard states the plaintext length and the pad letter, so exactly one plaintext is consistent
  (the reference never states the length: 81% of its hard items admit several plaintexts). The
  plaintext may end in ``X``; the stated length decides.
* Keyword rules are literally true of the log: "the word right after SET TO" (EN) / "the word right
  after 키워드" (KO) instead of "the word after the label" (which is always IS / 설정 in the
  reference); the positional rule states how words are counted, including that ``|`` is a word.
* The transposition's pad letter and tie order for repeated keyword letters are stated.
* The log sentences and the prompts are our own wording (labels, statuses, targets and actions are
  the reference's values). KO medium/hard hand-picked words are our own lists (the modifier x head
  products follow the spec), so the pools hold 318 / 305 words instead of the reference's 306 / 291.
* Items are independent draws (generation is a pure function of (config, seed, index), with no
  state across items), so KO medium/hard answers can repeat within a config (questions never do:
  keyword and log differ); the reference re-drew until each tier's 100 answers were distinct.
* KO candidates whose ciphertext also decrypts to a pool word under another pool keyword are
  rejected, so even a brute-force solver over the keyword pool is not misled.
* EN hard Vigenère runs over the padded transposed string with the key restarting at 0, as in the
  reference.
* ``levers`` are keyed by tier and then language (``{"en": {...}, "ko": {...}}``), because the two
  languages are different puzzles.

Verification (``check``) parses the puzzle from the question text (ciphertext, stack, log line,
keyword rule, stated length, examples) and decrypts it with a decrypter written for verification
only: EN with a cell-to-position map built from per-column ranks (not the generator's stable sort),
KO with ``unicodedata`` NFD/NFC decomposition (not :mod:`generators.hangul`). It counts the
plaintexts consistent with the ciphertext exactly (EN: exhaustive candidate letters per position,
over every length that fits when no length is stated, so an item without it is rejected; KO: per-op
bijectivity), re-encrypts every example and the gold with its own forward code, and checks
the keyword is the only pool keyword the log rule yields.

Scoring reproduces the reference judge (spec section 4; ``reference_extract`` is the unmodified
reference extraction) except deliberate fixes: after an answer label, lower-case English answers are
accepted and spaces inside an answer (EN or KO) are tolerated, a KO answer followed by " 입니다" is
read without it, and "The plaintext is X" is read as X (not ``IS``).
"""

from __future__ import annotations

import itertools
import re
import unicodedata

from . import hangul
from .base import Puzzle, Reject, VerificationError
from .extract import strip_fences

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
PAD = "X"

EN_KEYWORDS = ("ALPHA", "BRAVO", "CHARLIE", "DELTA", "ECHO", "FOXTROT", "GOLF", "HOTEL", "INDIA")
EN_LABELS = ("PRIMARY KEY", "AUTH CODE", "SEED", "VECTOR")
EN_STATUS = ("CRITICAL", "STABLE", "SYNCING", "LOCKED", "OVERLOADED")
EN_TARGETS = ("SATELLITE", "DATABASE", "GRID", "TERMINAL", "CORE")
EN_ACTIONS = ("OFFLINE", "READY", "STANDBY", "BREACHED")

KO_KEYWORDS = ("하늘", "바다", "나무", "구름", "태양", "달빛", "지도", "열쇠", "비밀")
KO_LABELS = ("주요키", "인증코드", "시드값", "벡터값", "암호키", "접속토큰")
KO_STATUS = ("심각", "안정", "동기화", "잠금", "과부하")
KO_TARGETS = ("위성", "데이터베이스", "그리드", "단말기", "코어")
KO_ACTIONS = ("오프라인", "준비완료", "대기", "침입됨")

KO_STACK_6 = ("CHO_SHIFT", "JUNG_SUB", "REVERSE", "CHO_SHIFT", "JUNG_SUB", "CHO_SHIFT")
KO_STACK_12 = (
    "CHO_SHIFT",
    "JUNG_SUB",
    "JONG_SHIFT",
    "REVERSE",
    "CHO_SHIFT",
    "JUNG_SUB",
    "REVERSE",
    "JONG_SHIFT",
    "CHO_SHIFT",
    "JUNG_SUB",
    "JONG_SHIFT",
    "REVERSE",
)

# ---- KO answer pools ---------------------------------------------------------------------------
_KO_EASY_SLOTS = (
    "지역 학교 환경 해양 우주 문화 교통 기상 전통 공공 사회 자연 생활 도시 농업 의료 정보 산업 교육".split(),
    "보안 통신 연구 관리 탐사 예보 시장 자원 정책 기술 관측 분석 지원 훈련".split(),
    "평가 분석 검증 관리 지원 기록 탐색 예측 보호 복원".split(),
    "계획 센터 체계 사업 자료 기록 모델 지도 절차 목표".split(),
)
_KO_MEDIUM_PICKED = (
    "데이터베이스 운영체제 패턴인식 컴파일러 알고리즘 자료구조 기계번역 음성인식 영상처리 정보검색 "
    "병렬처리 가상메모리 파일시스템 캐시메모리 신경회로망 프로그래밍 형식언어 오류정정 압축해제 "
    "접근제어"
).split()
_KO_MEDIUM_MODIFIERS = (
    "데이터 네트워크 인공지능 클라우드 디지털 암호 위성 자동 분산 시스템 정보 기계 패턴 음성 문서 경로 "
    "확률 논리 자료 보안"
).split()
_KO_MEDIUM_HEADS = "분석 보안 검색 처리 제어 모델 회로 구조 서버 통신 해독 분류 탐색 합성 학습".split()
_KO_HARD_PICKED = (
    "양자암호통신 분산합의프로토콜 검색증강생성 강화학습에이전트 자연어처리모델 연합학습보안 "
    "설명가능인공지능 적대적공격방어 영지식증명기법 차분프라이버시 지식증류기법 신경망가지치기 "
    "멀티모달추론 프롬프트주입방어 부채널공격분석 제로트러스트보안 취약점자동탐지 악성코드분류모델 "
    "형식검증도구 정리증명보조기"
).split()
_KO_HARD_MODIFIERS = (
    "양자암호 다중계층 비선형 확률그래프 분산합의 지식그래프 형태소분석 신경망압축 대규모언어 검색증강 "
    "동형암호 차분보호 블록체인 자동정리 복합추론 기호논리 문맥인식 계층계획 다국어평가 절차기억"
).split()
_KO_HARD_HEADS = "통신 보안 최적화 모델 추론 엔진 기법 생성 연산 검증 증명 평가 검색 수립 시스템".split()


def _dedupe(words):
    out, seen = [], set()
    for w in words:
        if w not in seen:
            seen.add(w)
            out.append(w)
    return out


def _ko_pool(tier: str) -> tuple[str, ...]:
    if tier == "easy":
        a, b, c, d = _KO_EASY_SLOTS
        words = [w + x + y + z for w in a for x in b for y in c for z in d]
        lo, hi = 8, 8
    elif tier == "medium":
        words = _KO_MEDIUM_PICKED + [m + h for m in _KO_MEDIUM_MODIFIERS for h in _KO_MEDIUM_HEADS]
        lo, hi = 4, 6
    else:
        words = _KO_HARD_PICKED + [m + h for m in _KO_HARD_MODIFIERS for h in _KO_HARD_HEADS]
        lo, hi = 6, 8
    return tuple(w for w in _dedupe(words) if lo <= len(w) <= hi)


KO_POOLS = {tier: _ko_pool(tier) for tier in ("easy", "medium", "hard")}
KO_POOL_SETS = {tier: frozenset(pool) for tier, pool in KO_POOLS.items()}

# ---- generator-side cipher code ----------------------------------------------------------------


def en_vigenere(text: str, key: str) -> str:
    return "".join(
        ALPHABET[(ALPHABET.index(ch) + ALPHABET.index(key[i % len(key)])) % 26] for i, ch in enumerate(text)
    )


def en_vigenere_inverse(text: str, key: str) -> str:
    return "".join(
        ALPHABET[(ALPHABET.index(ch) - ALPHABET.index(key[i % len(key)])) % 26] for i, ch in enumerate(text)
    )


def en_column_order(key: str) -> list[int]:
    """Original column indices in reading order (alphabetical, ties left to right)."""
    return sorted(range(len(key)), key=lambda c: key[c])


def en_transpose(text: str, key: str) -> str:
    n = len(key)
    rows = -(-len(text) // n)
    padded = text + PAD * (rows * n - len(text))
    grid = [padded[r * n : (r + 1) * n] for r in range(rows)]
    return "".join("".join(grid[r][c] for r in range(rows)) for c in en_column_order(key))


def en_transpose_inverse(text: str, key: str, length: int) -> str:
    n = len(key)
    rows = len(text) // n
    columns = {}
    for k, c in enumerate(en_column_order(key)):
        columns[c] = text[k * rows : (k + 1) * rows]
    return "".join(columns[c][r] for r in range(rows) for c in range(n))[:length]


def en_encrypt(plain: str, key: str, stack) -> str:
    text = plain
    for op in stack:
        text = en_transpose(text, key) if op == "TRANSPOSITION" else en_vigenere(text, key)
    return text


def ko_jung_table(key: str) -> list[int]:
    firsts = []
    for ch in key:
        m = hangul.decompose(ch)[1]
        if m not in firsts:
            firsts.append(m)
    return firsts + [m for m in range(hangul.N_MEDIALS) if m not in firsts]


def ko_jong_value(ch: str) -> int:
    cho, _, jong = hangul.decompose(ch)
    return jong if jong else cho + 1


def ko_apply(text: str, key: str, op: str, inverse: bool = False) -> str:
    if op == "REVERSE":
        return text[::-1]
    sign = -1 if inverse else 1
    table = ko_jung_table(key)
    out = []
    for i, ch in enumerate(text):
        cho, jung, jong = hangul.decompose(ch)
        k = key[i % len(key)]
        if op == "CHO_SHIFT":
            cho = (cho + sign * hangul.decompose(k)[0]) % hangul.N_INITIALS
        elif op == "JUNG_SUB":
            jung = table.index(jung) if inverse else table[jung]
        elif op == "JONG_SHIFT":
            jong = (jong + sign * ko_jong_value(k)) % hangul.N_FINALS
        else:
            raise ValueError(f"unknown KO operation {op!r}")
        out.append(hangul.compose(cho, jung, jong))
    return "".join(out)


def ko_states(plain: str, key: str, stack) -> list[str]:
    states = [plain]
    for op in stack:
        states.append(ko_apply(states[-1], key, op))
    return states


def ko_decrypt(cipher: str, key: str, stack) -> str:
    text = cipher
    for op in reversed(stack):
        text = ko_apply(text, key, op, inverse=True)
    return text


# ---- log sentences -----------------------------------------------------------------------------
EN_KEY_MARKER = "SET TO"
KO_KEY_MARKER = "키워드"


def _log_words(line: str) -> list[str]:
    return [w.rstrip(".:,") for w in line.split()]


class Cipher(Puzzle):
    name = "cipher"
    version = "1"
    levers = {
        "easy": {
            "en": {
                "stack": ["VIGENERE"],
                "keyword_rule": "direct",
                "examples": 1,
                "length": [20, 24],
                "reverse_note": False,
            },
            "ko": {
                "stack": list(KO_STACK_6),
                "keyword_rule": "positional",
                "examples": 0,
                "length": [8, 8],
                "pool": "easy",
            },
        },
        "medium": {
            "en": {
                "stack": ["VIGENERE"],
                "keyword_rule": "extraction",
                "examples": 2,
                "length": [20, 24],
                "reverse_note": True,
            },
            "ko": {
                "stack": list(KO_STACK_12),
                "keyword_rule": "positional",
                "examples": 0,
                "length": [4, 6],
                "pool": "medium",
            },
        },
        "hard": {
            "en": {
                "stack": ["TRANSPOSITION", "VIGENERE"],
                "keyword_rule": "positional",
                "examples": 10,
                "length": [6, 10],
                "reverse_note": True,
            },
            "ko": {
                "stack": list(KO_STACK_12),
                "keyword_rule": "extraction",
                "examples": 0,
                "length": [6, 8],
                "pool": "hard",
            },
        },
    }

    # ---- sampling ----------------------------------------------------------------------------
    def sample(self, rng, levers, lang):
        lv = levers[lang]
        return self._sample_en(rng, lv) if lang == "en" else self._sample_ko(rng, lv)

    def _sample_en(self, rng, lv):
        lo, hi = lv["length"]
        plain = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(lo, hi)))
        keyword = rng.choice(EN_KEYWORDS)
        label = rng.choice(EN_LABELS)
        sentences = [
            f"SYSTEM CHECK NUMBER {rng.randint(100, 9999)}: STATE {rng.choice(EN_STATUS)}.",
            f"UNIT {rng.choice(EN_TARGETS)} REPORTS {rng.choice(EN_ACTIONS)}.",
            f"POSITION FIXED AT {rng.randint(0, 180)}.{rng.randint(0, 99)} | ZONE {rng.randint(4096, 65535):04X}.",
            f"CIPHER {label} WAS {EN_KEY_MARKER} {keyword}.",
        ]
        rng.shuffle(sentences)
        stack = list(lv["stack"])
        examples = []
        for _ in range(lv["examples"]):
            ex = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(4, 6)))
            examples.append([ex, en_encrypt(ex, keyword, stack)])
        cipher = en_encrypt(plain, keyword, stack)
        inst = {
            "lang": "en",
            "plaintext": plain,
            "plaintext_length": len(plain),
            "keyword": keyword,
            "keyword_rule": lv["keyword_rule"],
            "label": label,
            "log_sentences": sentences,
            "stack": stack,
            "ciphertext": cipher,
            "padding": len(cipher) - len(plain),
            "examples": examples,
        }
        if lv["keyword_rule"] == "positional":
            inst["keyword_position"] = _log_words(" ".join(sentences)).index(keyword) + 1
        return inst

    def _sample_ko(self, rng, lv):
        tier = lv["pool"]
        pool = KO_POOLS[tier]
        plain = rng.choice(pool)
        keyword = rng.choice(KO_KEYWORDS)
        label = rng.choice(KO_LABELS)
        sentences = [
            f"점검 기록 번호 {rng.randint(100, 999)}: 상태 {rng.choice(KO_STATUS)}.",
            f"감시 대상 {rng.choice(KO_TARGETS)}: {rng.choice(KO_ACTIONS)}.",
            f"암호화 {label} 등록 단계: {KO_KEY_MARKER} {keyword} 변경 없이 사용됨.",
        ]
        rng.shuffle(sentences)
        stack = list(lv["stack"])
        cipher = ko_states(plain, keyword, stack)[-1]
        # A brute-force solver over the keyword pool must not find a second pool word.
        for other in KO_KEYWORDS:
            if other != keyword and ko_decrypt(cipher, other, stack) in KO_POOL_SETS[tier]:
                raise Reject
        inst = {
            "lang": "ko",
            "plaintext": plain,
            "plaintext_length": len(plain),
            "keyword": keyword,
            "keyword_rule": lv["keyword_rule"],
            "label": label,
            "log_sentences": sentences,
            "stack": stack,
            "ciphertext": cipher,
            "pool": tier,
            "pool_size": len(pool),
        }
        if lv["keyword_rule"] == "positional":
            inst["keyword_position"] = _log_words(" ".join(sentences)).index(keyword) + 1
        return inst

    def gold(self, instance, lang):
        return instance["plaintext"]

    # ---- rendering ---------------------------------------------------------------------------
    def render(self, instance, lang, levers):
        return (
            self._render_en(instance, levers["en"])
            if lang == "en"
            else self._render_ko(instance, levers["ko"])
        )

    def _render_en(self, inst, lv):
        log = " ".join(inst["log_sentences"])
        rule = inst["keyword_rule"]
        if rule == "direct":
            key_text = f'The keyword is "{inst["keyword"]}" (it also appears in the log).'
        elif rule == "extraction":
            key_text = (
                f'The keyword is the word that comes directly after "{EN_KEY_MARKER}" in the log '
                f"(in the sentence that names the cipher label: {', '.join(EN_LABELS)})."
            )
        else:
            key_text = (
                f"The keyword is word number {inst['keyword_position']} of the log line. To count words, "
                "split the log line at its spaces and number the pieces from 1; every piece is one word, "
                'including the separator "|" and numbers such as 12.5, and a period, colon or comma at '
                "the end of a piece is not part of the word."
            )
        stack = inst["stack"]
        defs = ["   Letters are numbered A=0, B=1, ..., Z=25."]
        if "TRANSPOSITION" in stack:
            defs.append(
                "   - TRANSPOSITION (columnar): make one column per keyword letter. Write the text into "
                "the grid row by row, left to right, and fill up the last row with the pad letter X. "
                "Then read each column from top to bottom, taking the columns in the alphabetical order "
                "of their keyword letters; columns whose keyword letters are equal are taken from left "
                "to right. The output keeps the pad letters."
            )
        if "VIGENERE" in stack:
            defs.append(
                "   - VIGENERE: number the positions of the current text from 0. The letter at position i "
                "is shifted forward by the value of keyword letter number (i mod keyword length), "
                "counting keyword letters from 0: cipher = (plain + key) mod 26."
            )
        notes = [
            f"1. Keyword: {key_text}",
            f"2. Operations, in the order they were applied: {' -> '.join(stack)}",
            "3. Definitions:",
            *defs,
        ]
        if lv["reverse_note"]:
            notes.append(
                f"{len([n for n in notes if n[0].isdigit()]) + 1}. To decrypt, undo the operations one by "
                "one in reverse order, starting with the last one applied."
            )
        if "TRANSPOSITION" in stack:
            notes.append(
                f"{len([n for n in notes if n[0].isdigit()]) + 1}. The plaintext is exactly "
                f"{inst['plaintext_length']} letters long; the letters after it in the rebuilt grid are "
                "padding and are not part of the answer (the plaintext itself may contain X)."
            )
        parts = [
            "A mission log was recovered together with an encrypted message.",
            "Mission log:",
            log,
            "-" * 40,
            f"Ciphertext: '{inst['ciphertext']}'",
            "",
            "How the message was encrypted:",
            *notes,
        ]
        if inst["examples"]:
            parts += ["", "Examples encrypted with the same keyword and operations:"]
            parts += [f"  - {p} -> {c}" for p, c in inst["examples"]]
        parts += [
            "",
            "Decrypt the ciphertext. Write the plaintext in capital letters A-Z without spaces, and end "
            "your response with a final line of the form",
            "Answer: <PLAINTEXT>",
        ]
        return "\n".join(parts)

    def _render_ko(self, inst, lv):
        log = " ".join(inst["log_sentences"])
        rule = inst["keyword_rule"]
        if rule == "extraction":
            key_text = (
                f"키워드는 로그에서 '{KO_KEY_MARKER}'라는 낱말 바로 뒤에 오는 낱말입니다 "
                f"(암호화 설정을 적은 문장에 있으며, 설정 이름은 {', '.join(KO_LABELS)} 중 하나입니다)."
            )
        else:
            key_text = (
                f"키워드는 로그 줄의 {inst['keyword_position']}번째 낱말입니다. 로그 줄을 띄어쓰기로 나눈 "
                "조각을 1부터 차례로 세며, 조각 하나가 낱말 하나입니다. 조각 끝의 마침표(.), 쌍점(:), "
                "쉼표(,)는 낱말에 넣지 않습니다."
            )
        stack = inst["stack"]
        table_cho = ", ".join(f"{i} {c}" for i, c in enumerate(hangul.INITIALS))
        table_jung = ", ".join(f"{i} {c}" for i, c in enumerate(hangul.MEDIALS))
        table_jong = ", ".join(f"{i} {c or '없음'}" for i, c in enumerate(hangul.FINALS))
        defs = [
            "   모든 글자는 완성형 한글 음절이며, 음절을 초성·중성·종성 번호로 나누어 계산합니다.",
            f"   초성 19개: {table_cho}",
            f"   중성 21개: {table_jung}",
        ]
        if "JONG_SHIFT" in stack:
            defs.append(f"   종성 28개: {table_jong}")
        defs.append(
            "   위치 i는 그 연산을 적용하는 시점의 문자열에서 0부터 센 음절 위치이고, 키 음절 k_i는 "
            "키워드의 (i mod 키워드 길이)번째 음절입니다(0부터 셈)."
        )
        defs.append(
            "   - CHO_SHIFT: 위치 i 음절의 초성 번호에 k_i의 초성 번호를 더하고 19로 나눈 나머지로 바꿉니다."
        )
        defs.append(
            "   - JUNG_SUB: 표 T를 만듭니다. 키워드 음절들의 중성 번호를 처음 나온 순서대로 중복 없이 적고, "
            "나머지 번호(0~20)를 작은 것부터 이어 붙여 21개로 만듭니다. 모든 음절의 중성 번호 j를 "
            "T의 j번째 값(0부터 셈)으로 바꿉니다."
        )
        if "JONG_SHIFT" in stack:
            defs.append(
                "   - JONG_SHIFT: 키 값 v는 k_i에 종성이 있으면 그 종성 번호, 없으면 k_i의 초성 번호 + 1입니다. "
                "위치 i 음절의 종성 번호에 v를 더하고 28로 나눈 나머지로 바꿉니다(받침 없는 음절도 적용, "
                "0은 받침 없음)."
            )
        defs.append("   - REVERSE: 음절의 순서를 거꾸로 뒤집습니다.")
        notes = [
            f"1. 키워드: {key_text}",
            f"2. 암호화에 적용한 연산(적용 순서): {' -> '.join(stack)}",
            "3. 연산 정의:",
            *defs,
            "4. 복호화할 때는 마지막에 적용한 연산부터 거꾸로 하나씩 되돌립니다.",
        ]
        parts = [
            "암호문과 함께 임무 로그 한 줄이 복구되었습니다.",
            "임무 로그:",
            log,
            "-" * 40,
            f"암호문: '{inst['ciphertext']}'",
            "",
            "암호화 방법:",
            *notes,
            "",
            "암호문을 복호화하여 원래 낱말(평문)을 구하세요. 평문은 띄어쓰기 없는 한글 음절로 쓰고, "
            "응답의 마지막 줄을 다음 형식으로 쓰세요.",
            "정답: <평문>",
        ]
        return "\n".join(parts)

    # ---- solution trace ----------------------------------------------------------------------
    def solution(self, instance, lang):
        key = instance["keyword"]
        stack = instance["stack"]
        if lang == "en":
            lines = [f"Keyword: {key}.", f"Ciphertext: {instance['ciphertext']}"]
            text = instance["ciphertext"]
            for op in reversed(stack):
                if op == "VIGENERE":
                    text = en_vigenere_inverse(text, key)
                    lines.append(f"Undo VIGENERE (subtract the keyword letters): {text}")
                else:
                    order = " ".join(str(c) for c in en_column_order(key))
                    full = en_transpose_inverse(text, key, len(text))
                    text = full[: instance["plaintext_length"]]
                    lines.append(
                        f"Undo TRANSPOSITION (columns read in order {order}; grid read row by row): {full}; "
                        f"keep the first {instance['plaintext_length']} letters: {text}"
                    )
            lines.append(f"Answer: {text}")
            return "\n".join(lines)
        states = ko_states(instance["plaintext"], key, stack)
        lines = [f"키워드: {key}", f"암호문: {instance['ciphertext']}"]
        for k in range(len(stack), 0, -1):
            lines.append(f"{stack[k - 1]} 되돌리기: {states[k]} -> {states[k - 1]}")
        lines.append(f"정답: {states[0]}")
        return "\n".join(lines)

    # ---- verification ------------------------------------------------------------------------
    def check(self, item, instance):
        if item["lang"] == "en":
            _verify_en(item["question"], item["answer"], item["tier"])
        else:
            _verify_ko(item["question"], item["answer"], item["tier"])
        if instance["plaintext"] != item["answer"] or instance["ciphertext"] not in item["question"]:
            raise VerificationError("instance does not match the item")

    # ---- scoring -----------------------------------------------------------------------------
    def extract(self, response, answer, lang):
        payload, labelled = _reference_payload(response)
        if lang == "en":
            ours = _en_fixed(payload, labelled)
            return ours if ours is not None else _en_reference(payload)
        ours = _ko_fixed(payload) if labelled else None
        return ours if ours is not None else _ko_reference(payload)

    def matches(self, extracted, answer, lang):
        return extracted.strip().upper() == answer.strip().upper()


# =================================================================================================
# Verification (independent of the generator code above: no en_*/ko_* helpers, no hangul module)
# =================================================================================================
_V_EN_KEYWORDS = ("ALPHA", "BRAVO", "CHARLIE", "DELTA", "ECHO", "FOXTROT", "GOLF", "HOTEL", "INDIA")
_V_KO_KEYWORDS = ("하늘", "바다", "나무", "구름", "태양", "달빛", "지도", "열쇠", "비밀")


def _one(pattern: str, text: str, what: str) -> re.Match:
    found = list(re.finditer(pattern, text, re.MULTILINE))
    if len(found) != 1:
        raise VerificationError(f"question states {what} {len(found)} times")
    return found[0]


def _v_keyword(question: str, log: str, marker: str, keywords) -> str:
    """The keyword the question's rule designates, read from the question text."""
    words = [w.rstrip(".:,") for w in log.split(" ")]
    direct = re.search(r'The keyword is "([A-Z]+)"', question)
    pos = re.search(r"word number (\d+) of the log line|로그 줄의 (\d+)번째 낱말", question)
    if direct:
        key = direct.group(1)
        if key not in words:
            raise VerificationError("direct keyword is not in the log")
    elif pos:
        n = int(pos.group(1) or pos.group(2))
        if not 1 <= n <= len(words):
            raise VerificationError("keyword position outside the log")
        key = words[n - 1]
    else:
        hits = [i for i in range(len(words) - 1) if " ".join(words[i : i + marker.count(" ") + 1]) == marker]
        if len(hits) != 1:
            raise VerificationError(f"marker {marker!r} occurs {len(hits)} times in the log")
        key = words[hits[0] + marker.count(" ") + 1]
    if key not in keywords:
        raise VerificationError(f"the keyword rule gives {key!r}, not a pool keyword")
    if sum(w in keywords for w in words) != 1:
        raise VerificationError("the log does not contain exactly one pool keyword")
    return key


def _v_en_cell_map(key: str, cells: int) -> list[int]:
    """Transposition as a map grid cell (row-major) -> output position, from per-column ranks."""
    n = len(key)
    rows = cells // n
    rank = [sum(1 for d in range(n) if key[d] < key[c] or (key[d] == key[c] and d < c)) for c in range(n)]
    return [rank[q % n] * rows + q // n for q in range(cells)]


def _v_en_forward(plain: str, key: str, stack: list[str]) -> str:
    vals = [ord(ch) - 65 for ch in plain]
    for op in stack:
        if op == "TRANSPOSITION":
            n = len(key)
            cells = ((len(vals) + n - 1) // n) * n
            vals = vals + [ord("X") - 65] * (cells - len(vals))
            out = [0] * cells
            for q, dest in enumerate(_v_en_cell_map(key, cells)):
                out[dest] = vals[q]
            vals = out
        elif op == "VIGENERE":
            vals = [(v + ord(key[i % len(key)]) - 65) % 26 for i, v in enumerate(vals)]
        else:
            raise VerificationError(f"unknown operation {op}")
    return "".join(chr(65 + v) for v in vals)


def _v_en_solutions(cipher: str, key: str, stack: list[str], length: int) -> list[set[int]]:
    """For each plaintext position, every letter consistent with the ciphertext (exhaustive over A-Z).

    Follows each plaintext letter and each pad cell forward through the stack (its position and the
    total Vigenère shift it receives); a pad cell that cannot have been X makes every set empty."""
    values = [ord(ch) - 65 for ch in cipher]
    pos = list(range(length))  # pos[p] = index in the current string of plaintext letter p
    shifts = [0] * length  # total Vigenère shift received by plaintext letter p
    pads: list[tuple[int, int]] = []  # (current index, total shift) of each pad cell
    cur_len = length
    for op in stack:
        if op == "TRANSPOSITION":
            n = len(key)
            cells = ((cur_len + n - 1) // n) * n
            cmap = _v_en_cell_map(key, cells)
            pads = [(cmap[i], s) for i, s in pads] + [(cmap[q], 0) for q in range(cur_len, cells)]
            pos = [cmap[i] for i in pos]
            cur_len = cells
        else:
            shifts = [(s + ord(key[pos[p] % len(key)]) - 65) % 26 for p, s in enumerate(shifts)]
            pads = [(i, (s + ord(key[i % len(key)]) - 65) % 26) for i, s in pads]
    if cur_len != len(cipher) or sorted(pos + [i for i, _ in pads]) != list(range(len(cipher))):
        return [set() for _ in range(length)]
    if any((s + ord("X") - 65) % 26 != values[i] for i, s in pads):
        return [set() for _ in range(length)]
    return [{v for v in range(26) if (v + shifts[p]) % 26 == values[pos[p]]} for p in range(length)]


def en_plaintexts(cipher: str, key: str, stack: list[str], length: int | None, limit: int = 2) -> list[str]:
    """Up to ``limit`` plaintexts consistent with the ciphertext; every length that fits if none is given."""
    if length is None:
        lengths = range(1, len(cipher) + 1) if "TRANSPOSITION" in stack else [len(cipher)]
    else:
        lengths = [length]
    found: list[str] = []
    for n in lengths:
        sets = [sorted(c) for c in _v_en_solutions(cipher, key, stack, n)]
        for letters in itertools.product(*sets):
            found.append("".join(chr(65 + v) for v in letters))
            if len(found) >= limit:
                return found
    return found


def _verify_en(question: str, gold: str, tier: str) -> None:
    cipher = _one(r"^Ciphertext: '([A-Z]+)'$", question, "a ciphertext").group(1)
    stack = _one(r"^\d+\. Operations, in the order they were applied: (.+)$", question, "the stack").group(1)
    stack = stack.split(" -> ")
    expected = {"easy": ["VIGENERE"], "medium": ["VIGENERE"], "hard": ["TRANSPOSITION", "VIGENERE"]}[tier]
    if stack != expected:
        raise VerificationError(f"stack {stack} is not the {tier} stack")
    log = _one(r"^Mission log:\n(.+)$", question, "a log").group(1)
    key = _v_keyword(question, log, "SET TO", _V_EN_KEYWORDS)
    stated = re.findall(r"The plaintext is exactly (\d+) letters long", question)
    if len(stated) > 1:
        raise VerificationError("the plaintext length is stated more than once")
    length = int(stated[0]) if stated else None
    if "TRANSPOSITION" in stack:
        if "pad letter X" not in question or "taken from left to right" not in question:
            raise VerificationError("transposition padding or tie rule not stated")
    found = en_plaintexts(cipher, key, stack, length)
    if len(found) != 1:
        raise VerificationError(
            f"{len(found) if found else 0} plaintexts are consistent with the question {found}"
        )
    plain = found[0]
    if plain != gold:
        raise VerificationError(f"decrypts to {plain!r}, gold is {gold!r}")
    if _v_en_forward(plain, key, stack) != cipher:
        raise VerificationError("gold does not re-encrypt to the ciphertext")
    examples = re.findall(r"^  - ([A-Z]+) -> ([A-Z]+)$", question, re.MULTILINE)
    want = {"easy": 1, "medium": 2, "hard": 10}[tier]
    if len(examples) != want:
        raise VerificationError(f"{len(examples)} examples, expected {want}")
    for p, c in examples:
        if _v_en_forward(p, key, stack) != c:
            raise VerificationError(f"example {p} -> {c} is wrong")


# KO: decomposition through Unicode canonical decomposition (conjoining jamo U+1100/U+1161/U+11A7).
def _v_ko_split(ch: str) -> list[int]:
    parts = unicodedata.normalize("NFD", ch)
    if not 2 <= len(parts) <= 3 or not 0x1100 <= ord(parts[0]) < 0x1113:
        raise VerificationError(f"{ch!r} is not a precomposed Hangul syllable")
    return [ord(parts[0]) - 0x1100, ord(parts[1]) - 0x1161, ord(parts[2]) - 0x11A7 if len(parts) == 3 else 0]


def _v_ko_join(j: list[int]) -> str:
    text = chr(0x1100 + j[0]) + chr(0x1161 + j[1]) + (chr(0x11A7 + j[2]) if j[2] else "")
    out = unicodedata.normalize("NFC", text)
    if len(out) != 1:
        raise VerificationError(f"jamo {j} do not compose")
    return out


def _v_ko_maps(key: str, op: str, i: int) -> tuple[int, list[int]]:
    """For op at position i: (jamo slot, forward value map over that slot's indices)."""
    k = _v_ko_split(key[i % len(key)])
    if op == "CHO_SHIFT":
        return 0, [(x + k[0]) % 19 for x in range(19)]
    if op == "JUNG_SUB":
        order: list[int] = []
        for ch in key:
            m = _v_ko_split(ch)[1]
            if m not in order:
                order.append(m)
        order += [m for m in range(21) if m not in order]
        return 1, order
    if op == "JONG_SHIFT":
        v = k[2] if k[2] else k[0] + 1
        return 2, [(x + v) % 28 for x in range(28)]
    raise VerificationError(f"unknown operation {op}")


def _v_ko_step(jamos: list[list[int]], key: str, op: str, inverse: bool) -> list[list[int]]:
    if op == "REVERSE":
        return [list(j) for j in reversed(jamos)]
    out = []
    for i, j in enumerate(jamos):
        slot, fmap = _v_ko_maps(key, op, i)
        if sorted(fmap) != list(range(len(fmap))):
            raise VerificationError(f"{op} at position {i} is not a bijection")
        new = list(j)
        new[slot] = fmap.index(j[slot]) if inverse else fmap[j[slot]]
        out.append(new)
    return out


def _verify_ko(question: str, gold: str, tier: str) -> None:
    cipher = _one(r"^암호문: '([^']+)'$", question, "a ciphertext").group(1)
    stack = (
        _one(r"^\d+\. 암호화에 적용한 연산\(적용 순서\): (.+)$", question, "the stack").group(1).split(" -> ")
    )
    expected = list(KO_STACK_6) if tier == "easy" else list(KO_STACK_12)
    if stack != expected:
        raise VerificationError(f"stack {stack} is not the {tier} stack")
    for op in sorted(set(stack) - {"REVERSE"}):
        if f"- {op}:" not in question:
            raise VerificationError(f"{op} is not defined in the question")
    log = _one(r"^임무 로그:\n(.+)$", question, "a log").group(1)
    key = _v_keyword(question, log, "키워드", _V_KO_KEYWORDS)
    jamos = [_v_ko_split(ch) for ch in cipher]
    for op in reversed(stack):
        jamos = _v_ko_step(jamos, key, op, inverse=True)
    plain = "".join(_v_ko_join(j) for j in jamos)
    if plain != gold:
        raise VerificationError(f"decrypts to {plain!r}, gold is {gold!r}")
    # Every step is a bijection (checked above per position), so this plaintext is the only one;
    # confirm by re-encrypting with the forward maps.
    fwd = [_v_ko_split(ch) for ch in plain]
    for op in stack:
        fwd = _v_ko_step(fwd, key, op, inverse=False)
    if "".join(_v_ko_join(j) for j in fwd) != cipher:
        raise VerificationError("gold does not re-encrypt to the ciphertext")


# =================================================================================================
# Scoring
# =================================================================================================
_TRIM_ANSWER = re.compile(r"answer *[:：]", re.IGNORECASE)
_TRIM_WONMUN = re.compile(r"원문:")
_PAYLOAD = re.compile(
    r"^[ \t]*(?:final answer|answer|최종 답|정답|원문|plaintext)[ \t]*[:：](.*)$",
    re.IGNORECASE | re.MULTILINE,
)
_EN_LABELLED = [
    re.compile(rf"{lab}\s*[:：]?\s*([A-Za-z]+)", re.IGNORECASE)
    for lab in ("answer", "plaintext", "원문", "답", "정답")
]
_EN_CAPS = re.compile(r"\b[A-Z]{3,}\b")
_KO_LABELLED = [
    re.compile(rf"{lab}\s*[:：]?\s*([가-힣]+)", re.IGNORECASE) for lab in ("answer", "원문", "정답", "답")
]
_KO_RUN = re.compile(r"[가-힣]{2,}")
_MARKUP = "*`'\"“”‘’.,!。 \t"
_EN_SPACED = re.compile(r"[A-Za-z]+(?: [A-Za-z]+)*")
_EN_SENTENCE = re.compile(
    r"\b(?:plaintext|answer|result|word)\s+(?:is|was|reads|would be)\s*[:：]?\s*[*`'\"“‘]*([A-Za-z]+(?: [A-Z]+)*)[*`'\"”’]*\s*[.!]?\s*$",
    re.IGNORECASE,
)
_KO_SPACED = re.compile(r"[가-힣]+(?: [가-힣]+)*")


def _last(pattern: re.Pattern, text: str):
    last = None
    for m in pattern.finditer(text):
        last = m
    return last


def _reference_payload(response: str) -> tuple[str, bool]:
    """Reference steps 1-2: trim after the last 'answer:' (else '원문:'), payload of the last label line.

    Also says whether the payload came from a label line (our fixes only apply to labelled answers)."""
    m = _last(_TRIM_ANSWER, response) or _last(_TRIM_WONMUN, response)
    text = response[m.start() :] if m else response
    text = strip_fences(text)
    p = _last(_PAYLOAD, text)
    return (p.group(1), True) if p else (text, False)


def reference_extract(response: str, lang: str) -> str | None:
    """The reference judge's extraction, without our deliberate fixes (used by the agreement test)."""
    payload, _ = _reference_payload(response)
    return _en_reference(payload) if lang == "en" else _ko_reference(payload)


def _en_reference(payload: str) -> str | None:
    for pat in _EN_LABELLED:
        m = _last(pat, payload)
        if m:
            return m.group(1).upper()
    m = _last(_EN_CAPS, payload)
    return m.group(0) if m else None


def _ko_reference(payload: str) -> str | None:
    for pat in _KO_LABELLED:
        m = _last(pat, payload)
        if m:
            return m.group(1).replace(" ", "")
    m = _last(_KO_RUN, payload)
    return m.group(0).replace(" ", "") if m else None


def _en_fixed(payload: str, labelled: bool) -> str | None:
    """Deliberate fixes: a labelled lower-case or space-separated answer, and 'The plaintext is X'."""
    p = payload.strip().strip(_MARKUP)
    if labelled and len(p) <= 400 and _EN_SPACED.fullmatch(p) and (p.isupper() or p.islower()):
        return p.replace(" ", "").upper()
    m = _EN_SENTENCE.search(payload[-400:])
    if m:
        return m.group(1).replace(" ", "").upper()
    return None


def _ko_fixed(payload: str) -> str | None:
    """Deliberate fixes: a Hangul answer written with spaces between its parts, or followed by 입니다."""
    p = payload.strip().strip(_MARKUP)
    copula = p.endswith(" 입니다")
    if copula:
        p = p[: -len(" 입니다")].strip(_MARKUP)
    if len(p) <= 400 and (" " in p or copula) and _KO_SPACED.fullmatch(p):
        return p.replace(" ", "")
    return None


PUZZLE = Cipher()
