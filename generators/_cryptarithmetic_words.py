"""Word pools for cryptarithmetic: common real nouns, written for this project.

EN words are upper case, 6 to 8 letters (the lengths the tiers use; like the reference pool there is
no 9-letter word, so an 8-letter sum never gets a ninth digit). KO words are bucketed by jamo count
(= digit count), 6 to 9 jamo. Buckets are built in ``generators.cryptarithmetic``; the order of the
tuples below is part of the generator (sampling indexes into sorted buckets).
"""

from __future__ import annotations

EN_WORDS: tuple[str, ...] = (
    # 6 letters
    "BANANA", "MARKET", "GARDEN", "MIRROR", "ORANGE", "PURPLE", "YELLOW", "RABBIT", "TURTLE",
    "DONKEY", "MONKEY", "SPIDER", "PARROT", "CASTLE", "BRIDGE", "CANDLE", "BOTTLE", "BUTTON",
    "CARROT", "CHERRY", "COFFEE", "COOKIE", "DINNER", "FLOWER", "FOREST", "GUITAR", "HAMMER",
    "ISLAND", "JACKET", "KITTEN", "LADDER", "LIZARD", "PENCIL", "PEPPER", "PILLOW", "POCKET",
    "POTATO", "SCHOOL", "SILVER", "SPRING", "SUMMER", "WINTER", "TEMPLE", "TICKET", "TOMATO",
    "WINDOW", "DOCTOR", "FARMER", "PLANET", "ROCKET", "SALMON", "CAMERA", "COTTON", "DESERT",
    "VALLEY", "BASKET", "WALLET", "OFFICE", "CIRCLE", "SQUARE",
    # 7 letters
    "OCTOPUS", "GIRAFFE", "RAINBOW", "DOLPHIN", "PENGUIN", "CHICKEN", "PUMPKIN", "BLANKET",
    "CABBAGE", "CAPTAIN", "COMPASS", "CRYSTAL", "CUSHION", "DIAMOND", "FREEDOM", "HARVEST",
    "JOURNEY", "KITCHEN", "LANTERN", "LIBRARY", "MORNING", "ORCHARD", "PAINTER", "PYRAMID",
    "SCIENCE", "TEACHER", "THUNDER", "TRUMPET", "VILLAGE", "VOLCANO", "WEATHER", "BALLOON",
    "BICYCLE", "AVOCADO", "EVENING", "MUSTARD", "PEACOCK", "SPARROW", "LOBSTER", "BLOSSOM",
    "CHEETAH", "PROJECT",
    # 8 letters
    "ELEPHANT", "UMBRELLA", "BASEBALL", "MUSHROOM", "SANDWICH", "HEDGEHOG", "DINOSAUR",
    "KANGAROO", "FLAMINGO", "SQUIRREL", "PAINTING", "AIRPLANE", "COMPUTER", "MOUNTAIN",
    "HOSPITAL", "FOOTBALL", "NOTEBOOK", "SUNSHINE", "DAUGHTER", "BIRTHDAY", "CUCUMBER",
    "LAVENDER", "ANTELOPE", "SEASHELL", "TREASURE", "MARATHON", "PRINCESS", "SKELETON",
    "HOMEWORK", "SNOWBALL", "RAINCOAT", "MOSQUITO", "SCORPION", "STARFISH", "SCISSORS",
    "CAROUSEL",
)  # fmt: skip

KO_WORDS: tuple[str, ...] = (
    # two syllables, both with a final consonant (6 jamo)
    "병원", "선물", "식당", "얼굴", "공책", "운동", "연필", "당근", "냉면",
    "공항", "은행", "약국", "극장", "공원", "강물", "눈물", "달력", "동전",
    "장갑", "신문", "방학", "생일", "명절", "색종이", "꽃병", "물감", "칠판", "분필",
    "김밥", "달걀", "책상", "창문", "음악", "점심", "봄날",
    # three syllables
    "무지개", "도서관", "잠자리", "운동화", "정류장", "원숭이", "얼룩말", "고양이", "강아지",
    "호랑이", "코끼리", "독수리", "비둘기", "오징어", "소나무", "대나무", "우체국", "박물관",
    "미술관", "운동장", "놀이터", "백화점", "편의점", "지하철", "자동차", "자전거", "비행기",
    "냉장고", "세탁기", "컴퓨터", "손수건", "책가방", "회사원", "공무원", "발가락", "손가락",
    "두꺼비", "고구마", "옥수수", "토마토", "바나나", "복숭아", "수영장", "눈사람", "민들레",
    "개나리", "진달래", "무궁화", "태극기", "줄넘기", "윷놀이", "할머니", "어머니", "아버지",
    "선생님", "대통령", "경찰관", "소방관", "요리사", "미용실", "세탁소", "문방구", "떡볶이",
    "비빔밥", "불고기", "된장국", "미역국", "삼계탕", "젓가락", "숟가락", "주전자", "휴대폰",
    "전화기", "선풍기", "청소기", "햄버거", "감기약", "반창고", "일기장", "색연필", "지우개",
    "도화지", "실내화", "기숙사", "시험지", "운동회", "졸업식", "입학식", "바닷가", "모래성",
    "거북이", "다람쥐", "고슴도치", "해바라기", "동그라미", "딱지치기", "할아버지", "보름달",
    "눈썹", "목도리", "장난감", "주차장", "시냇물", "연못", "산딸기", "밤송이",
)  # fmt: skip
