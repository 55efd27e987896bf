"""Hangul syllable arithmetic (Unicode 'Hangul Syllables' block, U+AC00..U+D7A3).

Shared by jamo, cipher, cryptarithmetic and the Korean templates (particle choice).
"""

from __future__ import annotations

SYLLABLE_BASE = 0xAC00
SYLLABLE_LAST = 0xD7A3
N_INITIALS, N_MEDIALS, N_FINALS = 19, 21, 28

INITIALS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
MEDIALS = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
# Index 0 is "no final consonant".
FINALS = ("",) + tuple("ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ")
# Finals made of two different consonants (겹받침), by index.
DOUBLE_FINALS = (3, 5, 6, 9, 10, 11, 12, 13, 14, 15, 18)
SINGLE_FINALS = tuple(i for i in range(N_FINALS) if i not in DOUBLE_FINALS)

assert len(INITIALS) == N_INITIALS and len(MEDIALS) == N_MEDIALS and len(FINALS) == N_FINALS


def is_syllable(ch: str) -> bool:
    return len(ch) == 1 and SYLLABLE_BASE <= ord(ch) <= SYLLABLE_LAST


def decompose(ch: str) -> tuple[int, int, int]:
    """(initial, medial, final) indices of one precomposed syllable."""
    if not is_syllable(ch):
        raise ValueError(f"not a precomposed Hangul syllable: {ch!r}")
    s = ord(ch) - SYLLABLE_BASE
    return s // (N_MEDIALS * N_FINALS), (s // N_FINALS) % N_MEDIALS, s % N_FINALS


def compose(initial: int, medial: int, final: int = 0) -> str:
    if not (0 <= initial < N_INITIALS and 0 <= medial < N_MEDIALS and 0 <= final < N_FINALS):
        raise ValueError(f"jamo indices out of range: {(initial, medial, final)}")
    return chr(SYLLABLE_BASE + (initial * N_MEDIALS + medial) * N_FINALS + final)


def has_final(word: str) -> bool:
    """Whether the last character of ``word`` ends in a consonant (for particle choice).

    Digits and Latin letters are read the Korean way (1 일, 3 삼, 6 육, 7 칠, 8 팔, 0 영 end in a
    consonant; L, M, N, R as 엘, 엠, 엔, 알).
    """
    if not word:
        return False
    ch = word[-1]
    if is_syllable(ch):
        return decompose(ch)[2] != 0
    if ch.isdigit():
        return ch in "013678"
    return ch.upper() in "LMNR"


def particle(word: str, with_final: str, without_final: str) -> str:
    """``word`` followed by the right particle, e.g. ``particle('지민', '은', '는') == '지민은'``.

    ``(으)로``-type particles: pass ``'으로'``/``'로'``; a final ㄹ takes ``로`` as well.
    """
    if with_final == "으로" and word and is_syllable(word[-1]) and decompose(word[-1])[2] == 8:
        return word + without_final
    return word + (with_final if has_final(word) else without_final)
