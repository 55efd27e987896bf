"""jamo (Korean-only): shift the initial consonant of every syllable to the next one in the 19-letter list.

Latent instance: ``{"word": str, "syllables": [[initial, medial, final], ...]}``; the word is 2 or 3
random precomposed syllables (mostly not real words, on purpose). Gold: the word with every initial
replaced by the next initial in Unicode order (ㄱ ㄲ ㄴ ... ㅎ, ㅎ wraps to ㄱ); medial and final
unchanged (a double final is one final).

Levers (reference code at HEAD): syllables 2 / 2 / 3; final mode light / single / mixed
(light: 40% a single final, else none; single: a uniformly drawn single final, including none;
mixed: half the time any of the 28 finals, else a single one); shift 1.

Verification recomputes the gold twice, independently of :mod:`generators.hangul`: with the ``jamo``
package (decomposition to conjoining jamo and back) and with ``unicodedata`` NFD/NFC, and checks that
the word printed in the question is the instance's word.
"""

from __future__ import annotations

import re
import unicodedata

import jamo as jamo_pkg

from . import hangul
from .base import Puzzle, VerificationError
from .extract import last_label_payload

_HANGUL_RUN = re.compile(r"[\uac00-\ud7a3]+")
_CONJOINING_LEADS = [chr(c) for c in range(0x1100, 0x1113)]  # the 19 initials, same order


class Jamo(Puzzle):
    name = "jamo"
    version = "1"
    levers = {
        "easy": {"syllables": 2, "final_mode": "light", "shift": 1},
        "medium": {"syllables": 2, "final_mode": "single", "shift": 1},
        "hard": {"syllables": 3, "final_mode": "mixed", "shift": 1},
    }

    def sample(self, rng, levers, lang):
        syllables = []
        for _ in range(levers["syllables"]):
            initial = rng.randrange(hangul.N_INITIALS)
            medial = rng.randrange(hangul.N_MEDIALS)
            mode = levers["final_mode"]
            if mode == "light":
                final = rng.choice(hangul.SINGLE_FINALS) if rng.random() < 0.4 else 0
            elif mode == "single":
                final = rng.choice(hangul.SINGLE_FINALS)
            elif mode == "mixed":
                final = (
                    rng.randrange(hangul.N_FINALS) if rng.random() < 0.5 else rng.choice(hangul.SINGLE_FINALS)
                )
            else:
                raise ValueError(f"unknown final mode {mode!r}")
            syllables.append([initial, medial, final])
        word = "".join(hangul.compose(*s) for s in syllables)
        return {"word": word, "syllables": syllables}

    def _shifted(self, instance, shift):
        return [[(i + shift) % hangul.N_INITIALS, m, f] for i, m, f in instance["syllables"]]

    def gold(self, instance, lang):
        return "".join(hangul.compose(*s) for s in self._shifted(instance, 1))

    def render(self, instance, lang, levers):
        shift = levers["shift"]
        table = ", ".join(f"{i} {c}" for i, c in enumerate(hangul.INITIALS))
        step = "바로 다음" if shift == 1 else f"{shift}칸 다음"
        return (
            "다음은 한글 자모를 바꾸는 퍼즐입니다.\n\n"
            "초성 19개는 아래 순서로 번호가 매겨져 있습니다 (된소리 포함, 유니코드 순서):\n"
            f"{table}\n\n"
            "규칙:\n"
            f"1. 단어의 각 음절을 초성, 중성, 종성으로 나눕니다.\n"
            f"2. 초성을 위 목록에서 {step} 번호의 초성으로 바꿉니다. 18번 ㅎ 다음은 0번 ㄱ입니다 "
            "(예: ㄱ→ㄲ, ㅅ→ㅆ, ㅎ→ㄱ).\n"
            "3. 중성과 종성은 그대로 둡니다. 겹받침(예: ㄺ)도 하나의 종성으로 보고 바꾸지 않습니다.\n"
            "4. 바뀐 자모로 음절을 다시 합쳐 원래 순서대로 이어 씁니다.\n\n"
            f'변환할 단어: "{instance["word"]}"\n\n'
            "풀이 과정을 적은 뒤, 마지막 줄에 변환 결과만 다음 형식으로 쓰세요.\n"
            "정답: <변환된 단어>"
        )

    def solution(self, instance, lang):
        lines = []
        for (i, m, f), (j, _, _) in zip(instance["syllables"], self._shifted(instance, 1), strict=True):
            src, dst = hangul.compose(i, m, f), hangul.compose(j, m, f)
            fin = hangul.FINALS[f] or "없음"
            lines.append(
                f"{src}: 초성 {hangul.INITIALS[i]}({i}) → {hangul.INITIALS[j]}({j}), "
                f"중성 {hangul.MEDIALS[m]}, 종성 {fin} → {dst}"
            )
        lines.append(f"정답: {self.gold(instance, 'ko')}")
        return "\n".join(lines)

    # ---- verification ------------------------------------------------------------------------
    def check(self, item, instance):
        word = instance["word"]
        quoted = re.findall(r'변환할 단어: "([^"]*)"', item["question"])
        if quoted != [word]:
            raise VerificationError(f"question does not show the instance word {word!r}")
        by_pkg = "".join(_shift_with_jamo_package(ch) for ch in word)
        by_nfd = "".join(_shift_with_unicodedata(ch) for ch in word)
        if not (by_pkg == by_nfd == item["answer"]):
            raise VerificationError(
                f"gold {item['answer']!r} disagrees with jamo package {by_pkg!r} / NFD {by_nfd!r}"
            )

    # ---- scoring -----------------------------------------------------------------------------
    def extract(self, response, answer, lang):
        # Reference judge: text after the last labelled line (else everything), trimmed after the
        # last "answer:" (else "정답:", else "답:"), then the last run of Hangul syllables.
        text = last_label_payload(response)
        if text is None:
            text = response
        for marker in (r"answer\s*:", r"정답\s*:", r"답\s*:"):
            hits = list(re.finditer(marker, text, re.IGNORECASE))
            if hits:
                text = text[hits[-1].end() :]
                break
        runs = _HANGUL_RUN.findall(text)
        return runs[-1] if runs else None

    def matches(self, extracted, answer, lang):
        return extracted.strip() == answer.strip()


def _shift_with_jamo_package(ch: str) -> str:
    parts = jamo_pkg.h2j(ch)  # conjoining jamo: lead, vowel[, tail]
    lead = _CONJOINING_LEADS[(_CONJOINING_LEADS.index(parts[0]) + 1) % 19]
    return jamo_pkg.j2h(lead, *parts[1:])


def _shift_with_unicodedata(ch: str) -> str:
    parts = unicodedata.normalize("NFD", ch)
    lead = _CONJOINING_LEADS[(_CONJOINING_LEADS.index(parts[0]) + 1) % 19]
    return unicodedata.normalize("NFC", lead + parts[1:])


PUZZLE = Jamo()
