"""Generate engine/variants/intercontinental.toml, the PROVISIONAL board of
Intercontinental (issue 15), from the rules' facts and the hand-written
geography below.

    python tools/intercontinental_board.py          # rewrite the variant file
    python tools/intercontinental_board.py --check  # exit 1 if it is stale

What comes from where:

* engine/variants/intercontinental_facts.toml (the rule text, as data): the
  32 major powers with their homes and units (fleet coasts where stated), the
  48 minors and 58 affiliates with their units and sponsors, the 180 centres,
  the antipodal seas, Suez's two coasts, the places the text names (Suez,
  East Mediterranean Sea [EMS], Red Sea, Azov, Syr-Darya, Zakáspiya, Van,
  Ulytau, Amur, Azores Current) and the §5.4 abbreviation rubric.
* this file (NOT the rules): every non-centre land region and sea, and every
  border. They are ordinary real-world geography, chosen so that the board
  is playable at its real scale; the official location index will differ.
  Borders the rule text implies are recorded, with their sections, in
  tests/engine/data/intercontinental_geography.toml and checked by
  tests/engine/test_intercontinental_board.py.

The generator is deliberately simple: LAND lists army borders (each written
once, either way round); SEAS lists, for each sea, the coastal provinces on
it and the seas it touches. A province on some sea is coastal, otherwise
inland. Two coastal provinces are fleet neighbours when they share a land
border and a sea (they then share a stretch of coast on it), except the
pairs in NO_COAST. Split coasts are written PROV/NC in SEAS. The output is
the plain data file that ships; read it, not this script, when reviewing.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.variants.intercontinental.abbreviations import abbreviate  # noqa: E402
from engine.variants.intercontinental.facts import load_facts  # noqa: E402

OUT, VIEWS = (ROOT / "engine" / "variants" / "intercontinental.toml",
              ROOT / "tools" / "intercontinental_views.toml")  # [[map.views]], copied

# --- Places that are not supply centres ------------------------------------
# (label as on the map, [lat, lon] for the schematic drawing). Labels with a
# bracket give their abbreviation (§5.4 rule 1); the provisional board uses
# that only to keep "Gulf of ..." and "Sea of ..." names apart.
# Named by the rule text (§5.2-§5.4, §11.2-§11.4, and the change log's Upstate,
# Ngari Khorsum and Iceland); everything else is provisional.
TEXT_NAMED = {"SUEZ", "EMS", "REDS", "AZOV", "SYRD", "ZAKA", "VAN", "ULYT", "AMUR",
              "AZOR", "PALM", "TUAM", "RAWA", "LOLE", "YELL", "EAST",
              "UPST", "NGAR", "ICEL"}

LANDS: dict[str, tuple[float, float]] = {
    # text-named land
    "Suez": (30.0, 32.5), "Syr-Darya": (44.5, 66.0), "Zakáspiya": (39.0, 57.0),
    "Van": (38.5, 43.4), "Ulytau": (48.6, 67.0), "Amur": (51.0, 128.0),
    "Upstate": (43.0, -75.5), "Ngari Khorsum": (32.0, 80.5), "Iceland": (64.9, -18.5),
    # Europe
    "Provence": (43.7, 5.5), "Bohemia": (50.0, 14.5), "Holstein": (54.2, 9.8),
    "Livonia": (57.0, 24.5), "Finland": (62.0, 25.5), "Lapland": (67.5, 24.0),
    "Arkhangelsk": (64.5, 40.5), "Kiev": (50.4, 30.5), "Crimea": (45.0, 34.0),
    "Kazan": (55.8, 49.1), "Bulgaria": (42.7, 25.0), "Bosnia": (44.0, 18.0),
    "Albania": (41.0, 20.0), "York": (54.0, -1.1),
    # Russia in Asia, Siberia, the Far East
    "Perm": (58.0, 56.2), "Orenburg": (51.8, 55.1), "Yamal": (67.0, 70.0),
    "Tobolsk": (58.2, 68.3), "Omsk": (55.0, 73.4), "Tomsk": (56.5, 85.0),
    "Yeniseisk": (60.0, 92.0), "Taymyr": (72.0, 98.0), "Verkhoyansk": (67.5, 133.4),
    "Kolyma": (65.0, 152.0), "Anadyr": (65.0, 172.0), "Kamchatka": (56.0, 159.0),
    "Primorye": (44.0, 133.0), "Sakhalin": (50.0, 142.8), "Semirechye": (44.0, 77.0),
    "Tiflis": (41.7, 44.8), "Baku": (40.4, 49.9),
    # China, Mongolia, Tibet, Korea, Japan
    "Kirin": (43.8, 126.5), "Chahar": (42.0, 115.0), "Gobi": (43.0, 103.0),
    "Kansu": (37.0, 101.0), "Koko Nor": (35.0, 96.0), "Yarkand": (38.4, 77.2),
    "Shantung": (36.5, 118.0), "Hankow": (30.6, 114.3), "Fukien": (26.1, 119.3),
    "Kwangsi": (23.5, 108.5), "Ezo": (43.1, 141.3), "Formosa": (23.7, 121.0),
    # South and Southeast Asia
    "Nepal": (28.2, 84.0), "Kashmir": (34.1, 74.8), "Mandalay": (22.0, 96.1),
    "Arakan": (20.1, 93.0), "Assam": (26.2, 92.9), "Kedah": (6.1, 100.4),
    "Orissa": (20.3, 85.8), "Nagpur": (21.1, 79.1), "Hyderabad": (17.4, 78.5),
    "Mysore": (12.3, 76.6), "Punjab": (31.5, 74.3), "Sind": (25.4, 68.4),
    "Rajputana": (26.9, 75.8), "Mindanao": (7.5, 125.0), "Sumatra": (-2.0, 102.0),
    "Sulawesi": (-2.0, 120.0), "Papua": (-5.0, 141.0),
    # Persia, Turkey, Arabia
    "Khorasan": (35.5, 59.6), "Kerman": (30.3, 57.1), "Tabriz": (38.1, 46.3),
    "Trebizond": (41.0, 39.7), "Adana": (37.0, 35.3), "Aleppo": (36.2, 37.2),
    "Palestine": (31.8, 35.2), "Hejaz": (23.0, 39.5), "Yemen": (15.4, 44.2),
    "Hadramaut": (16.0, 49.0), "Hasa": (25.4, 49.6),
    # Australasia
    "Sydney": (-33.9, 151.2), "Queensland": (-22.0, 145.0), "Arnhem Land": (-13.0, 134.0),
    "Kimberley": (-17.0, 125.0), "Nullarbor": (-31.0, 130.0),
    # Africa
    "Madagascar": (-19.0, 46.7), "Siwa": (29.2, 25.5), "Upper Egypt": (25.7, 32.6),
    "Cyrenaica": (32.1, 20.1), "Murzuk": (25.9, 13.9), "Ghadames": (30.1, 9.5),
    "Tangier": (35.8, -5.8), "Marrakesh": (31.6, -8.0), "Adrar": (20.5, -13.0),
    "Tibesti": (21.0, 17.5), "Bornu": (12.0, 14.0), "Wadai": (13.8, 20.8),
    "Futa Jallon": (11.0, -12.0), "Mossi": (12.4, -1.5), "Dahomey": (7.2, 2.1),
    "Cameroon": (4.0, 10.5), "Ubangi": (4.4, 18.6), "Bahr el Ghazal": (8.0, 27.0),
    "Buganda": (0.3, 32.6), "Kaffa": (7.3, 36.2), "Ogaden": (7.0, 44.0),
    "Afar": (12.0, 41.5), "Massawa": (15.6, 39.4), "Namaqualand": (-24.0, 16.5),
    "Kalahari": (-23.0, 22.5), "Sofala": (-19.8, 34.8), "Nyasa": (-13.0, 34.5),
    # North America
    "Ungava": (55.0, -66.0), "Rupert's Land": (55.0, -85.0), "Athabasca": (58.0, -112.0),
    "Yukon": (63.0, -135.0), "Alaska": (64.0, -150.0), "New Caledonia": (54.0, -124.0),
    "Oregon": (44.0, -121.0), "Dakota": (45.5, -101.0), "Colorado": (39.0, -105.5),
    "Arizona": (34.3, -111.7), "Sonora": (29.1, -111.0), "Jalisco": (20.7, -103.3),
    "Nuevo León": (25.7, -100.3), "Indian Territory": (35.5, -97.0),
    "Chicago": (41.9, -87.6), "Ohio": (40.0, -83.0), "Tennessee": (36.2, -86.8),
    "Atlanta": (33.7, -84.4), "Florida": (28.5, -81.5), "Carolina": (34.5, -79.5),
    "Guatemala": (14.6, -90.5), "Yucatán": (20.5, -89.0), "Costa Rica": (9.9, -84.1),
    # South America
    "Orinoco": (7.0, -65.0), "Cayenne": (4.9, -52.3), "Amazonas": (-5.0, -62.0),
    "Pernambuco": (-8.0, -35.0), "Minas Gerais": (-19.0, -44.0), "São Paulo": (-23.5, -46.6),
    "Mato Grosso": (-14.0, -56.0), "Rio Grande do Sul": (-30.0, -53.0),
    "Salta": (-24.8, -65.4), "Patagonia": (-44.0, -68.0),
}

SEA_NAMES: dict[str, tuple[float, float]] = {
    # text-named seas
    "East Mediterranean Sea [EMS]": (34.0, 30.0), "Red Sea": (20.0, 38.5),
    "Azov": (46.0, 36.5), "Azores Current": (45.0, -20.0),
    "Palmyra": (5.9, -162.1), "Tuamotu": (-17.0, -142.0), "Rawaki": (-3.7, -170.7),
    "Lolelaplap": (7.0, 168.0),
    "Yellow Sea": (35.5, 123.0),       # §11.4's "Yell"
    "East China Sea": (29.0, 126.0),   # §11.4's "East"
    # Atlantic, Arctic, European seas
    "Irish Sea": (53.8, -5.0), "English Channel": (50.2, -2.0),
    "Bay of Biscay [Bisc]": (45.5, -4.5), "North Sea": (56.0, 3.0),
    "Norwegian Sea": (67.0, 3.0), "Barents Sea": (72.0, 40.0),
    "Gulf of Bothnia [GoB]": (62.5, 20.0), "Gulf of Finland [GoF]": (59.8, 25.0),
    "Baltic Sea": (56.0, 18.0), "Alboran Sea": (36.0, -3.5), "Balearic Sea": (39.5, 3.0),
    "Gulf of Lion [GoL]": (42.5, 4.5), "Ligurian Sea": (43.5, 9.0),
    "Tyrrhenian Sea": (40.0, 12.0), "Ionian Sea": (37.0, 18.5), "Adriatic Sea": (43.0, 15.5),
    "Aegean Sea": (39.0, 25.0), "Libyan Sea": (33.5, 22.0), "Black Sea": (43.0, 34.0),
    "Caspian Sea": (42.0, 51.0), "Canary Current": (28.0, -16.0),
    "Guinea Current": (9.0, -17.0), "Gulf of Guinea [GoG]": (2.0, 3.0),
    "Angola Basin": (-10.0, 8.0), "Benguela Current": (-25.0, 12.0),
    "Agulhas Current": (-36.0, 25.0), "South Atlantic Ocean [SAO]": (-30.0, -15.0),
    "Mid-Atlantic Ocean": (15.0, -35.0), "Sargasso Sea": (28.0, -62.0),
    "Gulf Stream": (38.0, -65.0), "Gulf of Saint Lawrence [GSL]": (48.5, -62.0),
    "Labrador Sea": (57.0, -55.0), "Irminger Sea": (62.0, -35.0), "Baffin Bay": (72.0, -65.0),
    "Hudson Bay": (60.0, -85.0), "Arctic Ocean": (85.0, 0.0), "Kara Sea": (75.0, 70.0),
    "Laptev Sea": (75.0, 125.0), "Beaufort Sea": (72.0, -140.0), "Chukchi Sea": (69.0, -170.0),
    "Bering Sea": (58.0, -178.0), "Gulf of Alaska [GoAk]": (56.0, -142.0),
    "California Current": (33.0, -125.0), "Gulf of Tehuantepec [GoTe]": (14.5, -96.0),
    "Gulf of Fonseca [GFo]": (12.0, -89.0), "Gulf of Panama [GoP]": (5.0, -81.0),
    "Humboldt Current": (-12.0, -82.0), "Juan Fernández Sea": (-33.0, -78.0),
    "Drake Passage": (-58.0, -65.0), "Scotia Sea": (-57.0, -45.0),
    "Argentine Sea": (-45.0, -60.0), "Brazil Current": (-20.0, -35.0),
    "Guiana Current": (8.0, -52.0), "Caribbean Sea": (15.0, -75.0),
    "Gulf of Mexico [GoM]": (25.0, -90.0),
    # Pacific and Indian Oceans
    "Kuroshio Current": (35.0, 150.0), "Sea of Okhotsk [Okh]": (55.0, 150.0),
    "Sea of Japan [SoJ]": (40.0, 135.0), "South China Sea": (15.0, 115.0),
    "Gulf of Tonkin [GoT]": (20.0, 107.5), "Gulf of Siam [GoS]": (10.0, 102.0),
    "Philippine Sea": (18.0, 132.0), "Celebes Sea": (3.0, 122.0), "Java Sea": (-5.0, 111.0),
    "Strait of Malacca [SoM]": (4.0, 100.0), "Andaman Sea": (10.0, 96.0),
    "Banda Sea": (-6.0, 127.0), "Arafura Sea": (-10.0, 136.0), "Timor Sea": (-11.5, 127.0),
    "Coral Sea": (-18.0, 155.0), "Tasman Sea": (-38.0, 160.0),
    "Great Australian Bight": (-36.0, 131.0), "Leeuwin Current": (-30.0, 110.0),
    "Wharton Basin": (-15.0, 100.0), "Bay of Bengal [BoB]": (15.0, 88.0),
    "Laccadive Sea": (9.0, 75.0), "Arabian Sea": (16.0, 63.0), "Persian Gulf": (27.0, 51.0),
    "Gulf of Aden [GoA]": (12.5, 48.0), "Somali Basin": (0.0, 50.0),
    "Mozambique Channel": (-18.0, 41.0), "Mascarene Basin": (-20.0, 56.0),
    "Central Indian Ocean [CIO]": (-5.0, 75.0), "South Indian Ocean [SIO]": (-40.0, 80.0),
}

# --- Army borders: "CODE: NEIGHBOUR ..." (each border written at least once)
LAND = """
# Iberia, France, the Low Countries, Britain
LISB: OPOR SEVI MADR
OPOR: MADR
SEVI: MADR
MADR: BARC
BARC: TOUL
TOUL: BRES PARI PROV
PROV: TURI BERN PARI
BRES: PARI
PARI: BRUS STUT BERN
BRUS: AMST HANN STUT
AMST: HANN
LOND: LIVE YORK
YORK: LIVE EDIN
LIVE: EDIN
# Germany, the Alps, Italy, Austria, the Balkans
HANN: STUT BERL HOLS MUNI
HOLS: COPE BERL
BERL: DANZ WROC BOHE
BOHE: WROC MUNI VIEN
DANZ: WARS LIVO
WROC: KRAK WARS VIEN
MUNI: STUT BERN VIEN VENI
STUT: BERN
BERN: TURI
TURI: VENI ROME
VENI: ROME VIEN ZAGR
ROME: NAPL
VIEN: BUDA ZAGR KRAK
BUDA: ZAGR KRAK BELG BUCH
ZAGR: BOSN BELG
BOSN: BELG ALBA
ALBA: ATHE BELG
BELG: BUCH BULG
BUCH: BULG KIEV
BULG: CONS ATHE
CONS: ANKA SMYR
ANKA: SMYR TREB ADAN
SMYR: ADAN
TREB: VAN TIFL
VAN: ADAN ALEP TABR TIFL BAGH
# Poland, Russia, Scandinavia, the Caucasus
KRAK: WARS KIEV
WARS: MINS KIEV
MINS: LIVO MOSC KIEV
LIVO: STPE
STPE: MOSC FINL ARKH LAPL
FINL: LAPL
LAPL: STOC CHRI ARKH
STOC: CHRI
MOSC: KIEV ROST KAZA ARKH
KIEV: ROST CRIM
ROST: CRIM TIFL GURY KAZA
GURY: KAZA OREN ULYT ZAKA
TIFL: BAKU TABR
BAKU: TABR
KAZA: PERM OREN ARKH
ARKH: PERM YAMA
OREN: PERM ULYT TOBO
PERM: TOBO YAMA
YAMA: TOBO
# Central Asia and Siberia
TOBO: ULYT OMSK
ULYT: OMSK SEMI SYRD
ZAKA: SYRD BUKH KHOR
SYRD: BUKH SEMI YARK
BUKH: KABU KHOR
KHOR: TEHR KERM QALA KABU
KABU: QALA PUNJ KASH YARK
QALA: SIND KERM PUNJ
SEMI: OMSK TOMS URUM YARK
OMSK: TOMS
TOMS: YENI
YENI: IRKU TAYM YAKU
TAYM: YAKU
IRKU: URGA YAKU AMUR
YAKU: AMUR VERK KOLY
VERK: KOLY
KOLY: AMUR KAMC ANAD
ANAD: KAMC
AMUR: PRIM KIRI
PRIM: KIRI HANS
# China, Mongolia, Tibet, Korea, Japan
KIRI: MUKD
MUKD: PEKI URGA CHAH HANS
URGA: CHAH GOBI
GOBI: URUM KANS CHAH
URUM: YARK KANS KOKO NGAR
YARK: NGAR KASH
NGAR: LHAS KASH NEPA
LHAS: NEPA KOKO CHEN ASSA KUNM
KOKO: KANS CHEN
KANS: HSIA CHAH
CHAH: PEKI HSIA
PEKI: SHAN HSIA
HSIA: CHEN HANK SHAN
CHEN: KUNM HANK
HANK: TIEN SHAN FUKI KWAN
TIEN: SHAN FUKI
FUKI: HONG KWAN
HONG: MACA KWAN
MACA: KWAN
KWAN: KUNM HANO
EDO: OSAK
# Indochina, Burma, India
KUNM: HANO VIAN MAND
HANO: HUE VIAN
HUE: VIAN SAIG PHNO
VIAN: CHIA BANG PHNO
PHNO: SAIG BANG
BANG: CHIA KEDA RANG
CHIA: MAND RANG
MAND: RANG ASSA ARAK
RANG: ARAK
KEDA: SING
ARAK: DHAK ASSA
ASSA: DHAK
DHAK: CALC
CALC: NEPA ORIS NAGP DELH
NEPA: DELH
DELH: PUNJ RAJP NAGP KASH
PUNJ: KASH SIND RAJP
SIND: RAJP
RAJP: BOMB NAGP
BOMB: NAGP HYDE MYSO
NAGP: ORIS HYDE
HYDE: ORIS MYSO
KASH: NGAR
MANI: MIND
MEDA: SUMA
# Persia, Mesopotamia, the Levant, Arabia
TEHR: TABR SHIR KERM BAGH
TABR: BAGH
SHIR: KERM BASR
BAGH: BASR DAMA ALEP
BASR: HASA RIYA
ALEP: DAMA ADAN
DAMA: PALE HEJA
PALE: SUEZ HEJA
HEJA: RIYA YEME
RIYA: HASA YEME HADR
HASA: MUSC
MUSC: HADR
HADR: ADEN YEME
ADEN: YEME
# North Africa and the Sahara
SUEZ: CAIR UPPE ALEX
CAIR: ALEX UPPE SIWA
ALEX: SIWA CYRE
UPPE: KHAR SIWA
KHAR: MASS MAGD ALFA BAHR
CYRE: TRIP SIWA MURZ
TRIP: TUNI GHAD MURZ
TUNI: ALGI GHAD
ALGI: ORAN GHAD TAMA
ORAN: FEZ TAMA
FEZ: TANG MARR TAMA
TANG: MARR
MARR: ADRA
ADRA: TIMB TAMA DAKA
TAMA: GHAD MURZ TIMB GAO TIBE
MURZ: TIBE
TIBE: WADA BORN ALFA SIWA
# West and Central Africa
TIMB: GAO FUTA MOSS
GAO: MOSS SAKK
DAKA: FUTA BISS
BISS: FUTA FREE
FUTA: FREE MONR KUMA
FREE: MONR
MONR: GREE
GREE: KUMA
KUMA: ELMI MOSS DAHO
ELMI: DAHO
DAHO: LAGO MOSS SAKK
LAGO: SAKK CAME
SAKK: YOLA BORN MOSS
YOLA: BORN CAME UBAN
BORN: WADA UBAN
WADA: ALFA UBAN
ALFA: BAHR
BAHR: UBAN BUGA KAFF
UBAN: KASO LIBR CAME BUGA
CAME: LIBR
LIBR: BOMA
BOMA: LUAN KASO
LUAN: MOCA KASO MWIB
MOCA: NAMA SESH
# Southern and East Africa
KASO: MWIB TABO BUGA
MWIB: SESH NYAS TABO IRIN
SESH: NAMA KALA PRET NYAS SOFA
NAMA: KALA CAPE
KALA: BLOE PRET
BLOE: CAPE PRET DURB
PRET: DURB MAPU SOFA
DURB: MAPU CAPE
MAPU: SOFA
SOFA: NYAS
NYAS: IRIN
IRIN: TABO STON
TABO: BUGA STON MOMB
STON: MOMB
MOMB: BUGA MOGA KAFF
BUGA: KAFF
KAFF: DEBR OGAD MOGA
MOGA: OGAD
OGAD: BERB DEBR AFAR
BERB: AFAR
AFAR: MAGD DEBR MASS
MAGD: DEBR MASS
# North America
HALI: QUEB
QUEB: OTTA UNGA
OTTA: UPST WINN RUPE CHIC
UPST: NEWY OHIO
NEWY: WASH
WASH: RICH OHIO
RICH: TENN CARO
CARO: ATLA
ATLA: FLOR TENN NEWO
TENN: STLO NEWO OHIO
OHIO: STLO CHIC
CHIC: STLO OMAH WINN DAKO
STLO: OMAH INDI
NEWO: AUST INDI
AUST: INDI COLO CHIH NUEV
INDI: OMAH COLO
OMAH: DAKO COLO
DAKO: WINN KAMM COLO ATHA
COLO: KAMM ARIZ
KAMM: SEUH OREG ARIZ ATHA NEWC
SEUH: SACR OREG ARIZ
SACR: OREG ARIZ
ARIZ: SONO CHIH
SONO: CHIH JALI
CHIH: MEXI NUEV JALI
NUEV: MEXI VERA
MEXI: VERA OAXA JALI
VERA: OAXA
OAXA: GUAT YUCA
GUAT: YUCA COMA
COMA: MANA
MANA: COST
COST: PANA
WINN: RUPE ATHA
RUPE: UNGA ATHA
ATHA: NEWC YUKO
NEWC: VICT OREG YUKO
YUKO: ALAS
# South America
PANA: BOGO
BOGO: CARA QUIT ORIN AMAZ
CARA: ORIN
ORIN: GEOR AMAZ
GEOR: PARA AMAZ
PARA: CAYE AMAZ
CAYE: AMAZ SAOL
AMAZ: QUIT LIMA CUSC LAPA MATO SAOL
SAOL: PERN MATO
PERN: SALV MATO
SALV: MATO MINA
MINA: RIOD MATO SAOP
RIOD: SAOP
SAOP: MATO ASUN RIOG
MATO: LAPA ASUN
QUIT: LIMA
LIMA: CUSC
CUSC: LAPA
LAPA: ANTO SALT
ANTO: SANT SALT
SALT: ASUN CORD
ASUN: CORD MONT RIOG
CORD: BUEN SANT PATA
BUEN: MONT PATA
MONT: RIOG
SANT: PATA
# Australia
PERT: KIMB NULL
KIMB: ARNH
ARNH: QUEE
QUEE: SYDN
SYDN: MELB
MELB: NULL
"""

# --- Seas: "SEA: coastal provinces | neighbouring seas" ----------------------
SEAS = """
# Europe and the North Atlantic
AZOR: DUBL BRES OPOR LISB SEVI | IRIS ENGL BISC CANA MIDA SARG GULF IRMI NORW ALBO
IRIS: DUBL LIVE | AZOR NORW ENGL
ENGL: LOND BRES BRUS | AZOR IRIS NORT BISC
BISC: BRES TOUL OPOR | AZOR ENGL
NORT: LOND YORK EDIN BRUS AMST HANN HOLS COPE CHRI | ENGL NORW
NORW: EDIN CHRI LAPL ICEL | NORT IRIS AZOR IRMI BARE ARCT
BARE: LAPL ARKH YAMA STPE/NC | NORW ARCT KARA
GOB: STOC FINL | BALT GOF
GOF: STPE/SC FINL LIVO STOC | BALT GOB
BALT: COPE STOC DANZ BERL LIVO | GOB GOF
# Mediterranean, Black Sea, Caspian
ALBO: SEVI FEZ TANG ORAN | AZOR CANA BALE
BALE: BARC ALGI ORAN | ALBO GOL TYRR
GOL: BARC PROV | BALE LIGU TYRR
LIGU: PROV TURI | GOL TYRR
TYRR: ROME NAPL TUNI | BALE GOL LIGU IONI
IONI: NAPL TUNI TRIP ALBA ATHE | TYRR ADRI AEGE LIBY EMS
ADRI: VENI ZAGR BOSN ALBA | IONI
AEGE: ATHE CONS SMYR | IONI EMS
EMS: SMYR ADAN ALEP PALE ALEX SUEZ/NC | AEGE IONI LIBY
LIBY: TRIP CYRE ALEX | IONI EMS
BLAC: CONS ANKA TREB TIFL CRIM BUCH BULG KIEV | AZOV
AZOV: ROST CRIM | BLAC
CASP: GURY BAKU TABR TEHR ZAKA KAZA |
# Africa's Atlantic coast
CANA: TANG MARR ADRA DAKA | AZOR ALBO MIDA GUIN
GUIN: DAKA BISS FREE MONR GREE | CANA MIDA GOG
GOG: GREE ELMI KUMA DAHO LAGO CAME LIBR | GUIN MIDA ANGO
ANGO: BOMA LUAN MOCA | GOG MIDA BENG SAO
BENG: MOCA NAMA CAPE | ANGO SAO AGUL
AGUL: CAPE DURB | BENG SAO MOZA MASC SIO
SAO: | BENG ANGO MIDA BRAZ ARGE SCOT AGUL SIO
MIDA: | AZOR CANA GUIN GOG ANGO SAO BRAZ GUIA SARG
# The Americas' Atlantic coast and the Arctic
SARG: SANJ FLOR CARO | MIDA AZOR GULF CARI GUIA GOM
GULF: NEWY HALI WASH RICH CARO STJO | SARG LABR AZOR GSL
GSL: QUEB HALI STJO | GULF LABR
LABR: STJO UNGA GODT | GULF GSL IRMI BAFF HUDS
IRMI: GODT ICEL | LABR NORW AZOR
BAFF: GODT | LABR ARCT
HUDS: RUPE UNGA WINN | LABR
ARCT: | BAFF BEAU NORW BARE KARA LAPT CHUK
KARA: YAMA TAYM | BARE ARCT LAPT
LAPT: TAYM VERK | KARA ARCT CHUK
BEAU: ATHA YUKO | ARCT CHUK
CHUK: ALAS ANAD KOLY | BEAU ARCT BERI LAPT
GOM: HAVA YUCA VERA NUEV AUST NEWO FLOR ATLA | CARI SARG
CARI: CARA ORIN BOGO PANA/NC MANA/EC COMA/NC YUCA HAVA SANJ | GOM SARG GUIA
GUIA: GEOR PARA CAYE SAOL ORIN | MIDA BRAZ CARI SARG
BRAZ: SAOL PERN SALV RIOD SAOP RIOG | ARGE SAO MIDA GUIA
ARGE: BUEN MONT PATA STAN RIOG | BRAZ SAO SCOT
SCOT: STAN PATA | DRAK ARGE SAO
# The Pacific coast of the Americas
BERI: ALAS ANAD KAMC KODI | CHUK GOAK KURO OKH
GOAK: ALAS KODI NEWC VICT | BERI CALI PALM
CALI: VICT OREG SACR ARIZ SONO JALI | GOAK PALM GOTE
GOTE: JALI MEXI OAXA GUAT | CALI GFO PALM TUAM
GFO: COMA/SC MANA/WC GUAT COST | GOTE GOP
GOP: PANA/SC COST QUIT | GFO HUMB TUAM
HUMB: QUIT LIMA ANTO | GOP JUAN TUAM
JUAN: SANT PATA ANTO | HUMB TUAM DRAK
DRAK: PATA | JUAN SCOT TUAM
# The central Pacific: the four antipodal seas (§5.3)
PALM: HONO | GOAK CALI GOTE LOLE RAWA TUAM
LOLE: HONO | PALM RAWA KURO PHIL CORA
RAWA: AUCK | PALM LOLE TUAM CORA TASM
TUAM: | PALM RAWA GOTE GOP HUMB JUAN DRAK
# East Asia
KURO: EDO EZO | EAST PHIL LOLE BERI OKH
OKH: KAMC AMUR SAKH EZO | BERI KURO SOJ
SOJ: PRIM HANS OSAK EZO SAKH | OKH YELL EAST
YELL: PEKI MUKD SHAN TIEN HANS OSAK | EAST SOJ
EAST: EDO OSAK TIEN FUKI FORM | YELL SOJ KURO SOUT PHIL
SOUT: HONG MACA FUKI FORM MANI HUE SAIG KUCH | EAST PHIL GOT GOS JAVA CELE SOM
GOT: HANO HUE KWAN | SOUT
GOS: BANG PHNO SAIG | SOUT
PHIL: MANI MIND FORM PAPU | EAST SOUT KURO LOLE CELE CORA
CELE: MANI MIND SULA | PHIL SOUT BAND JAVA
JAVA: KUCH BATA SUMA SING SULA | SOUT SOM BAND WHAR CELE
SOM: MEDA SING KEDA SUMA | ANDA JAVA SOUT
ANDA: RANG KEDA MEDA | SOM BOB WHAR CIO
BAND: SULA PAPU | CELE JAVA ARAF TIMO
ARAF: PAPU ARNH QUEE | BAND TIMO CORA
TIMO: KIMB ARNH | BAND ARAF WHAR
# Australasia
CORA: PAPU QUEE SYDN | ARAF PHIL LOLE RAWA TASM
TASM: SYDN MELB AUCK | CORA RAWA GREA SIO
GREA: MELB NULL PERT | TASM SIO LEEU
LEEU: PERT KIMB | GREA WHAR SIO
WHAR: BATA SUMA | JAVA TIMO ANDA LEEU CIO SIO
# The Indian Ocean
BOB: CALC DHAK ARAK RANG ORIS HYDE MYSO KAND | ANDA LACC CIO
LACC: BOMB MYSO KAND | BOB ARAB CIO
ARAB: BOMB SIND QALA KERM MUSC HADR | LACC CIO GOA SOMA
PERS: BASR SHIR HASA MUSC KERM | ARAB
REDS: SUEZ/SC UPPE MASS HEJA YEME | GOA
GOA: ADEN YEME AFAR BERB HADR | REDS ARAB SOMA
SOMA: MOGA MOMB STON OGAD | GOA ARAB CIO MASC MOZA
MOZA: STON IRIN SOFA MAPU DURB MADA | SOMA MASC AGUL
MASC: MADA | SOMA MOZA AGUL SIO CIO
CIO: | BOB LACC ARAB SOMA MASC SIO WHAR ANDA
SIO: | CIO MASC AGUL SAO GREA LEEU WHAR TASM
"""

# Coastal neighbours on the same sea that nonetheless share no stretch of coast.
NO_COAST: set[frozenset[str]] = set()

# Split coasts: only those the text gives (§5.2 Suez; §6.10, §6.26, §7.3 the
# fleets' stated coasts). The other coast of each is provisional geography.
COAST_NAMES = {"NC": "north coast", "SC": "south coast", "EC": "east coast",
               "WC": "west coast"}

# Comments on close calls, printed after a province's lists.
NOTES = {
    "OSAK": "text (§11.4): F Osak - Yell; so Osaka touches the Yellow Sea here",
    "EDO": "text (§11.4): F Edo - East; the East China Sea is drawn to reach Edo",
    "HANS": "text (§11.4): F Hans - Yell, F Hans S Osak - Yell",
    "URGA": "text (§11.4): A Irku - Urga, A Urga S Peki - Mukd",
    "AMUR": "text (§11.4): A Yaku - Amur",
    "GURY": "text (§11.2): attacked from Rostov-on-Don or from Ulytau",
    "ULYT": "text (§11.2): a Siberian army in Ulytau attacks Guryev",
    "DUBL": "text (§11.3.1-2): F Dublin - Azores Current; F Dublin S F Oporto - Azores Current",
    "OPOR": "text (§11.3.1-2): F Oporto - Azores Current",
    "PALM": "text (§5.3): Palmyra and Rawaki are adjacent (the only wrap-around pair)",
    "RAWA": "text (§5.3): Palmyra and Rawaki are adjacent (the only wrap-around pair)",
    "SUEZ": "text (§5.2): north coast on the EMS, south coast on the Red Sea until 1870",
    "SAKK": "text (§1.5): Sokoto starts landlocked, so Sakkwato and Yola are inland",
    "YOLA": "text (§1.5): Sokoto starts landlocked",
    "DEBR": "text (§1.5): Ethiopia starts landlocked, so Debre Birhan and Magdala are inland",
    "MAGD": "text (§1.5): Ethiopia starts landlocked",
    "STOC": "text (§9.1.1): Russia can take Stockholm in 1865 (F StPe/SC - GoF - Stoc)",
    "STPE": "text (§6.26): F St. Petersburg (south coast); the north coast is provisional",
    "PANA": "text (§6.10): F Panama City (north coast); the south coast is provisional",
    "COMA": "text (§7.3): F Comayagua (north coast); the south coast is provisional",
    "MANA": "text (§7.3): F Managua (west coast); the east coast is provisional",
    "STON": ("provisional: Stone Town stands for Zanzibar and the coast facing it,"
             " so its army can move"),
    "CONS": "provisional: fleets pass between the Black Sea and the Aegean, as on the standard map",
    "COPE": "provisional: fleets pass between the North Sea and the Baltic (the Sound)",
    "PATA": "provisional: fleets pass between the oceans by the Strait of Magellan",
    "EZO": "provisional: an island between the Sea of Japan and the Kuroshio (Tsugaru Strait)",
    "ROST": "provisional: on the Sea of Azov only; Astrakhan and the Caspian are in Kazan",
    "ARIZ": "provisional: Arizona stands for the Southwest, with southern California's coast",
    "KAZA": "provisional: Kazan stands for the Volga down to Astrakhan, hence its Caspian coast",
    "TOUL": "provisional: Gascony's coast on Biscay; the Gulf of Lion coast is Provence's",
    "MUKD": ("text (§11.4): A Peki - Mukd, A Mukd S Irku - Urga, A Urga S Mukd H;"
             " provisional: its coast is Liaodong's"),
    "BULG": "provisional: on the Black Sea only (the Aegean coast is Athens' and Constantinople's)",
    "HOLS": "provisional: on the North Sea only; fleets pass to the Baltic at Copenhagen",
    "NAPL": "provisional: Tyrrhenian and Ionian coasts; the Adriatic is Venice's and the east's",
    "COST": "provisional: Pacific coast only; Caribbean to Pacific only round Panama City's coasts",
    "HONO": "provisional: Hawaii (a callout on the real map, §12.3) touches Palmyra and Lolelaplap",
}

SPLIT: dict[str, dict[str, str]] = {}  # filled from SEAS


def ascii_key(name: str) -> str:
    plain = unicodedata.normalize("NFKD", name.replace("ł", "l").replace("Đ", "D")
                                  .replace("đ", "d"))
    plain = "".join(c for c in plain if c.isascii())
    return re.sub(r"[^A-Za-z0-9]+", "_", plain).strip("_").upper()


def strip_label(label: str) -> str:
    return re.sub(r"\s*\[[^\]]*\]", "", label).strip()


def code_of(label: str) -> str:
    return abbreviate(label).upper()


def parse_pairs(text: str) -> list[tuple[str, str]]:
    pairs = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        head, rest = line.split(":", 1)
        for other in rest.split():
            pairs.append((head.strip(), other))
    return pairs


def build() -> str:
    facts = load_facts()
    names: dict[str, str] = {}       # code -> name (without bracket)
    labels: dict[str, str] = {}      # code -> label
    points: dict[str, tuple[float, float]] = {}
    kinds: dict[str, str] = {}
    centre_codes: dict[str, str] = {}  # facts name -> code

    def add(label: str, kind: str, point: tuple[float, float]) -> str:
        code = code_of(label)
        if code in names:
            raise SystemExit(f"abbreviation clash: {label!r} and {labels[code]!r} are both {code}")
        names[code], labels[code] = strip_label(label), label
        points[code], kinds[code] = point, kind
        return code

    for name in facts.supply_centres:
        centre_codes[name] = add(facts.location_label(name), "land", facts.coordinates[name])
    for label, point in LANDS.items():
        add(label, "land", point)
    for label, point in SEA_NAMES.items():
        add(label, "water", point)
    for reserved in facts.unnamed_abbreviations:
        if reserved.upper() not in names:
            raise SystemExit(f"§11.4's {reserved} has no place on the board")

    army: dict[str, set[str]] = {c: set() for c in names}
    for a, b in parse_pairs(LAND):
        for c in (a, b):
            if c not in names:
                raise SystemExit(f"LAND: unknown code {c}")
            if kinds[c] == "water":
                raise SystemExit(f"LAND: {c} is a sea")
        army[a].add(b)
        army[b].add(a)

    sea_coast: dict[str, list[str]] = {}   # sea -> coastal locations
    sea_seas: dict[str, set[str]] = {}
    for line in SEAS.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        head, rest = line.split(":", 1)
        coast_part, _, sea_part = rest.partition("|")
        sea = head.strip()
        if kinds.get(sea) != "water":
            raise SystemExit(f"SEAS: {sea} is not a sea")
        sea_coast[sea] = coast_part.split()
        sea_seas.setdefault(sea, set()).update(sea_part.split())
        for other in sea_part.split():
            if kinds.get(other) != "water":
                raise SystemExit(f"SEAS: {sea} lists {other}, not a sea")
            sea_seas.setdefault(other, set()).add(sea)
    for sea in sea_seas:
        if sea not in sea_coast:
            raise SystemExit(f"SEAS: {sea} has no line of its own")

    fleet: dict[str, set[str]] = {}
    seas_of: dict[str, set[str]] = {}   # location -> seas
    for sea, members in sea_coast.items():
        fleet.setdefault(sea, set()).update(sea_seas[sea])
        for loc in members:
            prov, _, coast = loc.partition("/")
            if prov not in names or kinds[prov] == "water":
                raise SystemExit(f"SEAS: {sea} lists {loc}, not a land province")
            kinds[prov] = "coastal"
            if coast:
                SPLIT.setdefault(prov, {})[coast] = sea
            fleet.setdefault(sea, set()).add(loc)
            fleet.setdefault(loc, set()).add(sea)
            seas_of.setdefault(loc, set()).add(sea)
    for prov in SPLIT:
        if prov in seas_of:
            raise SystemExit(f"{prov} has split coasts and a plain coast")
    # coastal neighbours sharing a sea
    locs = sorted(seas_of)
    for i, a in enumerate(locs):
        for b in locs[i + 1:]:
            pa, pb = a.split("/")[0], b.split("/")[0]
            if pa == pb or pb not in army[pa] or frozenset((pa, pb)) in NO_COAST:
                continue
            if seas_of[a] & seas_of[b]:
                fleet[a].add(b)
                fleet[b].add(a)

    # --- check the facts' fleets stand where fleets can ---------------------
    unit_text: dict[str, str] = {}

    def unit_string(unit: object, code: str) -> str:
        kind = unit.unit
        coast = unit.coast
        if kind == "A":
            return f"A {code}"
        if coast:
            letter = {"north": "NC", "south": "SC", "east": "EC", "west": "WC"}[coast]
            if letter not in SPLIT.get(code, {}):
                raise SystemExit(f"{code} has no {coast} coast")
            return f"F {code}/{letter}"
        if kinds[code] != "coastal" or code in SPLIT:
            raise SystemExit(f"a fleet starts in {code}, which is {kinds[code]}")
        return f"F {code}"

    out: list[str] = []
    w = out.append
    w(HEADER.strip("\n"))
    w("")
    w("[variant]")
    w('name = "intercontinental"')
    w('title = "Intercontinental (provisional board)"')
    w('start = "S1865M"       # §1.1')
    w("victory = 72           # §2.0 (and strictly more centres than any other player)")
    w("# Said beside the variant's name at the head of every mail of a game.")
    w('notice = "provisional board, not the official map"')
    w('rules = "intercontinental"   # engine/variants/intercontinental/__init__.py')
    # Offered to games: a whole game by mail (colour groups, bids, the canal,
    # an additional home) is tested end to end in
    # tests/e2e/test_intercontinental_by_mail.py. The board stays provisional.
    w("")
    w("# " + "-" * 75)
    w("# The 32 major powers (§6): homes and units from the rules. theatre and")
    w("# groups (the colour groups §3/§6 allow; fixed = preassigned) are for the")
    w("# rules module; the judge itself does not read them.")
    for code, power in sorted(facts.powers.items(), key=lambda kv: kv[1].name):
        key = ascii_key(power.name)
        homes = [centre_codes[u.centre] for u in power.units]
        units = [unit_string(u, centre_codes[u.centre]) for u in power.units]
        for u, s in zip(power.units, units, strict=True):
            unit_text[u.centre] = s
        w("")
        w(f"[powers.{key}]   # §{power.section}")
        w(f'adjective = "{ADJECTIVES[code]}"')
        w(f'letter = "{code}"')
        w(f'aliases = ["{code.lower()}", "{power.name.lower()}"]' if ascii_key(power.name)
          .replace("_", " ").lower() != power.name.lower() else f'aliases = ["{code.lower()}"]')
        w(f"home = {toml_list(homes)}")
        w(f"units = {toml_list(units)}")
        w(f'theatre = "{power.theatre}"')
        w(f"groups = {toml_list(list(power.groups))}")
        w(f"fixed = {'true' if power.fixed else 'false'}")
        if power.map_colour:
            w(f'map_colour = "{power.map_colour}"   # §6.12')
    letters_used = set(facts.powers)
    power_key_of = {code: ascii_key(p.name) for code, p in facts.powers.items()}

    def neutral_letter(code: str) -> str:
        code = (code + "XX")[:4]
        tries = (code[:3], code[0] + code[2:4], code[0:2] + code[3:4], code[0] + code[1] + code[3])
        for cand in tries:
            if len(cand) == 3 and cand not in letters_used:
                letters_used.add(cand)
                return cand
        for x in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
            cand = code[:2] + x
            if cand not in letters_used:
                letters_used.add(cand)
                return cand
        raise SystemExit(f"no letter for {code}")

    w("")
    w("# " + "-" * 75)
    w("# The 48 minor neutrals (§7): one stationary unit each, ordered by Diplomacy")
    w("# Point bids (§10, §11). A power is named after its centre. neutral = \"minor\".")
    def bid_power(centre: str, unit: str, note: str, neutral: str) -> None:
        """The lines a minor and an affiliate share: a stationary unit on its
        one centre, ordered by bids."""
        code = centre_codes[centre]
        s = unit_string(unit, code)
        unit_text[centre] = s
        w("")
        w(f"[powers.{ascii_key(centre)}]   # {note}")
        if ascii_key(centre).replace("_", " ").title() != names[code]:
            w(f'title = "{names[code]}"')  # its name in prose, where the key's words mislead
        w(f'adjective = "{names[code]}"')
        w(f'letter = "{neutral_letter(code)}"')
        w('ordered_by = "bids"')
        w("stationary = true")
        w(f'home = ["{code}"]')
        w(f'units = ["{s}"]')
        w(f'neutral = "{neutral}"')

    for minor in facts.minors:
        bid_power(minor.centre, minor.unit, f"§{minor.section}, {minor.region}", "minor")
    w("")
    w("# " + "-" * 75)
    w("# The 58 affiliates (§8): like minors, but the sponsor's DP count double")
    w("# (§11.3). sponsor: the colour group; or sponsor_follows: the major power")
    w("# whose group is the sponsor (§8.9, §8.10), with possible_sponsors.")
    w("# colour_group: the map colour (§8.9's Dutch keep orange; §8.10's take the sponsor's).")
    for aff in facts.affiliates:
        bid_power(aff.centre, aff.unit, f"§{aff.section}", "affiliate")
        if aff.sponsor:
            w(f'sponsor = "{aff.sponsor}"')
        else:
            w(f'sponsor_follows = "{power_key_of[aff.sponsor_follows or ""]}"')
            w(f"possible_sponsors = {toml_list(list(aff.possible_sponsors))}")
        w(f'colour_group = "{aff.colour}"')

    # --- provinces ----------------------------------------------------------
    centre_set = set(centre_codes.values())
    w("")
    w("# " + "-" * 75)
    w("# Provinces, by code (the §5.4 abbreviation in upper case; the alias is")
    w("# the abbreviation as the map writes it). \"# text:\" notes name the section")
    w("# that vouches for a border; everything else is provisional geography.")
    for code in sorted(names):
        w("")
        origin = ("centre" if code in centre_set else
                  "named by the text" if code in TEXT_NAMED else "provisional, not in the text")
        w(f"[provinces.{code}]   # {origin}")
        w(f'name = "{names[code]}"')
        w(f'kind = "{kinds[code]}"')
        if code in centre_set:
            w("centre = true")
        abbr = abbreviate(labels[code])
        extra = []
        if abbr != code:
            extra.append(abbr.lower()) if abbr.lower() != code.lower() else None
        plain = plain_name(names[code])
        if plain and plain != names[code].lower() and plain not in ALL_SPELLINGS:
            extra.append(plain)
        if extra:
            w(f"aliases = {toml_list(extra)}")
        if kinds[code] != "water":
            w(f"army = {toml_list(sorted(army[code]))}")
        if code in SPLIT:
            pass
        elif kinds[code] != "land":
            w(f"fleet = {toml_list(sorted(fleet[code]))}")
        if code in NOTES:
            w(f"# {NOTES[code]}")
        for coast in sorted(SPLIT.get(code, {})):
            loc = f"{code}/{coast}"
            w("")
            w(f"[provinces.{code}.coasts.{coast}]")
            w(f'name = "{COAST_NAMES[coast]}"')
            w(f"fleet = {toml_list(sorted(fleet[loc]))}")

    # --- the Suez canal form (§5.2), for the rules module -------------------
    suez_fleet = sorted({d for c in SPLIT["SUEZ"] for d in fleet[f"SUEZ/{c}"]})
    w("")
    w("# " + "-" * 75)
    w("# §5.2: from Spring 1870 Suez is a canal with one coast. The variant format's")
    w("# [[canals]] cannot hold this (a canal with `opens` must have no fleet moves")
    w("# before it opens, and it cannot merge two coasts), so the canal form is data")
    w("# for the Intercontinental rules module, which switches the")
    w("# board: from `opens`, SUEZ has no coasts and this fleet list, every location")
    w("# in it lists SUEZ instead of SUEZ/NC or SUEZ/SC, and a fleet on either coast")
    w("# in Winter 1869 stands in SUEZ. The base map above is the split form.")
    w("[suez_canal]")
    w(f"opens = {facts.suez.canal_opens}")
    w('province = "SUEZ"')
    w(f"fleet = {toml_list(suez_fleet)}")
    w('coasts_before = { NC = "EMS", SC = "REDS" }')
    w("")
    w("# §2.2, optional: the year cap. Uncomment to end the game at the end of that")
    w("# year's Autumn, when nobody has won, in a draw of every surviving player; the")
    w("# text recommends fifteen years, to 1880. Without it there is no cap.")
    w("# [year_cap]")
    w("# last_year = 1880")

    # --- drawing -------------------------------------------------------------
    w("")
    w("# " + "-" * 75)
    w("# Where the schematic map draws each province: its [lat, lon] in a Lambert")
    w("# azimuthal equal-area projection centred on 0N 20E, as the real map (§12.3),")
    w("# with a fisheye around Europe (FISHEYE_* in the tool), which is crowded at")
    w("# equal area; scaled to points. Provisional coordinates, no rules meaning.")
    w("[map]")
    w(f"size = [{SIZE[0]}, {SIZE[1]}]\n\n" + VIEWS.read_text(encoding="utf-8").split("\n\n", 1)[1])
    w("[map.units]")
    placed = spread({code: project(*points[code]) for code in sorted(names)})
    for code in sorted(names):
        x, y = placed[code]
        w(f"{code} = [{x}, {y}]")
    w("")
    w("# " + "-" * 75)
    w("# The map's colours (engine/variants/intercontinental/map_key.py; no rules")
    w("# meaning). Each colour group (§1.2) has four shades, one per theatre in")
    w("# §3.0's order (Africa, Europe, Americas, Asia), so that its four powers")
    w("# differ and still read as one player. Affiliates are drawn pale in their")
    w("# sponsor's colour, minors in `minor`, majors not yet drawn (§3.2) in")
    w("# `undrawn`; `named` is a colour a power keeps (§6.12). `pixels`: the")
    w("# PNG's width, wide enough for a unit to be about ten pixels across.")
    w("[map_style]")
    w(f"pixels = {MAP_PIXELS}")
    w(f'minor = "{MINOR_COLOUR}"')
    w(f'undrawn = "{UNDRAWN_COLOUR}"')
    w("")
    w("[map_style.groups]")
    for group, shades in GROUP_SHADES.items():
        w(f"{group} = {toml_list(list(shades))}")
    w("")
    w("[map_style.named]")
    w(f'Orange = "{ORANGE}"   # §6.12: the Dutch East Indies')
    w("")
    missing = [n for n in facts.supply_centres if n not in unit_text]
    if missing:
        raise SystemExit(f"centres without a unit: {missing}")
    return "\n".join(out).rstrip() + "\n"


SIZE = (2400, 2400)
# Europe holds about a third of the board's provinces in a twentieth of its
# area (§12.3's equal-area map draws it small too). A fisheye around it gives
# it room without an inset, so that the board stays one picture and arrows
# between Europe and the rest still point the right way: within
# FISHEYE_REACH (in the projection's units, the globe being 4 across) of
# FISHEYE_AT, distances from it are stretched by up to 1 + FISHEYE_GAIN,
# meeting the plain projection at the edge of that reach.
FISHEYE_AT = (48.0, 14.0)  # lat, lon
FISHEYE_REACH = 1.0
FISHEYE_GAIN = 2.6


def _lambert(lat: float, lon: float) -> tuple[float, float]:
    import math
    phi, lam = math.radians(lat), math.radians(lon - 20.0)
    k = math.sqrt(2.0 / max(1e-9, 1.0 + math.cos(phi) * math.cos(lam)))
    return k * math.cos(phi) * math.sin(lam), k * math.sin(phi)


def project(lat: float, lon: float) -> tuple[int, int]:
    import math
    x, y = _lambert(lat, lon)
    fx, fy = _lambert(*FISHEYE_AT)
    d = math.hypot(x - fx, y - fy)
    if 0 < d < FISHEYE_REACH:
        stretch = (1 + FISHEYE_GAIN) / (1 + FISHEYE_GAIN * d / FISHEYE_REACH)
        x, y = fx + (x - fx) * stretch, fy + (y - fy) * stretch
    # x, y within [-2, 2]; the antipodal seas, near the rim, are kept inside 1.9.
    r = math.hypot(x, y)
    if r > 1.9:
        x, y = x * 1.9 / r, y * 1.9 / r
    return round(SIZE[0] / 2 + x * SIZE[0] / 4.2), round(SIZE[1] / 2 - y * SIZE[1] / 4.2)


MAP_PIXELS = 3200
MINOR_COLOUR = "#c7baaf"
UNDRAWN_COLOUR = "#726e72"
ORANGE = "#ec6f00"
# The players' colours, measured as the legibility checks measure them
# (tests/judge/maps/legibility.py, docs/maps.md): every shade of a group at least
# 12 ΔE00 from every other group's, from the Dutch East Indies' orange, the minors'
# and the not-yet-drawn colour, and from the sea, as units and as owned land (the
# board paints owners at 0.8, judge/maps/schematic.py); a group's own shades, and
# its affiliates' pale (map_key.py's PALE of the second shade), at least 6 apart.
# The pales crowd the light end; a pale orange is held clear too (§8.9's Dutch
# affiliates keep orange). Each group keeps to its name's hue (OKLCh: Blue
# 250-272, Teal 180-200, Green 135-155, Olive 105-125 and dark, Yellow 80-100 and
# light, Red 22-38, Maroon 350-15 and dark, Violet 290-315); the shades were found
# by a search within those bounds, and their nearest pairs are 13.2 apart (two
# groups' pales as land), 7.7 within a group.
GROUP_SHADES = {
    "Blue": ("#007dd7", "#283b9b", "#2863c8", "#004d88"),
    "Teal": ("#008388", "#00abb2", "#1ecfc6", "#006264"),
    "Green": ("#007f25", "#54ca77", "#8ed365", "#00a054"),
    "Olive": ("#57542a", "#3d5000", "#7b7b43", "#6a6400"),
    "Yellow": ("#d29a00", "#f9c515", "#ffe648", "#c1ab02"),
    "Red": ("#cb3426", "#ed544d", "#f07f70", "#ac3400"),
    "Maroon": ("#773f50", "#6f0038", "#af406a", "#671b28"),
    "Violet": ("#8752b9", "#af6cd1", "#d28df3", "#763291"),
}
MIN_GAP = 26.0  # points: the schematic map's discs are sized by the closest pair


def spread(placed: dict[str, tuple[int, int]]) -> dict[str, tuple[int, int]]:
    """The points with every pair at least MIN_GAP apart: pairs too close
    (Hong Kong and Macau, Ottawa and Quebec) are pushed apart along their
    line, a few rounds, so that one close pair does not shrink every disc."""
    import math
    at = {code: (float(x), float(y)) for code, (x, y) in placed.items()}
    codes = sorted(at)
    for _ in range(20):
        moved = False
        for i, a in enumerate(codes):
            for b in codes[i + 1:]:
                (ax, ay), (bx, by) = at[a], at[b]
                d = math.hypot(bx - ax, by - ay)
                if d >= MIN_GAP:
                    continue
                ux, uy = ((bx - ax) / d, (by - ay) / d) if d > 0 else (1.0, 0.0)
                push = (MIN_GAP - d) / 2 + 0.5
                at[a] = (ax - ux * push, ay - uy * push)
                at[b] = (bx + ux * push, by + uy * push)
                moved = True
        if not moved:
            break
    return {code: (round(x), round(y)) for code, (x, y) in at.items()}


ALL_SPELLINGS: set[str] = set()


def plain_name(name: str) -> str:
    """The name without diacritics, lower case, if that differs (an alias)."""
    plain = unicodedata.normalize("NFKD", name.replace("ł", "l").replace("Đ", "D")
                                  .replace("đ", "d"))
    return "".join(c for c in plain if c.isascii()).lower()


def toml_list(items: list[str]) -> str:
    return "[" + ", ".join(f'"{i}"' for i in items) + "]"


ADJECTIVES = {
    "AL": "Algerian", "AN": "Angolan", "AR": "Argentine", "AU": "Austrian",
    "BZ": "Brazilian", "BR": "Anglo-Indian", "CA": "Canadian", "CC": "Cape Colonial",
    "CH": "Chinese", "CO": "Colombian", "DN": "Vietnamese", "DU": "Dutch",
    "EG": "Egyptian", "ET": "Ethiopian", "FR": "French", "GB": "British",
    "IR": "Iranian", "IT": "Italian", "JA": "Japanese", "LI": "Liberian",
    "ME": "Mexican", "PE": "Peruvian", "PO": "Portuguese", "PR": "Prussian",
    "RA": "Siamese", "RU": "Russian", "SH": "Shoshone", "SI": "Siberian",
    "SO": "Sokoto", "TU": "Turkish", "US": "American", "ZA": "Zanzibari",
}

HEADER = """
# Intercontinental (W. Alex Ronke, rules v1.1.2, CC BY-SA 4.0): PROVISIONAL BOARD.
#
# THIS IS NOT THE OFFICIAL MAP. The official board has about 460 locations
# (§5.1), published only as a location index PDF and pictures that this project
# does not have. This file is a provisional board, reconstructed from the facts
# the rule text gives and from real-world geography, so that the variant can be
# played at its real scale today.
#
# From the rules (engine/variants/intercontinental_facts.toml, every entry with
# its section): the 32 major powers with their home centres and starting units,
# fleet coasts where stated (§6); the 48 minor neutrals (§7) and 58 affiliates
# (§8) with their unit types and sponsors; the 180 supply centres (§2.0); the
# antipodal seas Palmyra, Tuamotu, Rawaki and Lolelaplap, with Palmyra-Rawaki
# adjacent (§5.3); Suez with split coasts, north on the East Mediterranean Sea
# and south on the Red Sea, until the canal opens in 1870 (§5.2; the canal form
# is the [suez_canal] table near the end); the names the text gives to places
# (Suez, EMS, Red Sea, Azov, Syr-Darya, Zakáspiya, Van, Ulytau, Amur, Azores
# Current, §11.4's Yell and East; the change log's Upstate, Ngari Khorsum and
# Iceland); the abbreviations, by the §5.4 rubric (the province codes are the
# abbreviations in upper case); and every border the text implies (§1.5, §5.2,
# §5.3, §9.1.1, §11.2, §11.3, §11.4), marked "# text:" below and checked by
# tests/engine/test_intercontinental_board.py against
# tests/engine/data/intercontinental_geography.toml.
#
# PROVISIONAL (not from the rules): every other land region and sea, marked
# "provisional" after its header, all `army` and `fleet` lists, the coasts of
# the split-coast provinces other than the stated ones, and the [map] points.
# The adjacency is real-world geography at the scale of the centres, with as
# few invented spaces as play needs; it is generated by
# tools/intercontinental_board.py (re-run it after editing the geography there).
#
# Split coasts only where the text gives them: Suez (§5.2), Panama City (fleet
# on the north coast, §6.10), St. Petersburg (south, §6.26), Comayagua (north)
# and Managua (west) (§7.3).
#
# Seats: the eight colour groups (§1.2) are not a [seats] table: 15 of the 32
# majors are assigned to groups at random before each game (§3.2-§3.5), so the
# seats depend on the game. Each major lists `groups` (and `fixed`) for the
# rules module that will do the assignment.
#
# HOW A GM REPLACES THIS WITH THE OFFICIAL BOARD: transcribe the official
# location index into [provinces] (one table per location, code = its §5.4
# abbreviation in upper case; `army` and `fleet` lists from its neighbours;
# `coasts` for its split coasts), keep the [powers] tables as they are (they are
# the rules' facts), update [suez_canal] from §5.2's figure, delete or redo
# [map], and run
#     judge variant check engine/variants/intercontinental.toml
#     .venv/bin/pytest tests/engine/test_intercontinental_board.py
# The tests name any fact of the rules the new lists break. See docs/variants.md,
# "Intercontinental: the provisional board".
#
# This file is an adaptation of the rules and is shared under the same licence,
# CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/).
# GENERATED by tools/intercontinental_board.py; edit the geography there.
"""


def main() -> int:
    text = build()
    if "--check" in sys.argv:
        if OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} is stale: run python tools/intercontinental_board.py")
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
