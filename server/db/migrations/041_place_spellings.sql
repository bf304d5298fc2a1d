-- Filters find an event however its contributor spelt the place. "USA", "U.S.A.", "United States"
-- and "us" are one country, as are "Germany" and "Deutschland"; "New York, NY", "NYC" and "new
-- york" one city, as are "München" and "Munich". The spellings are those the duplicate matcher
-- already treats as one (COUNTRY_ALIASES and CITY_ALIASES in server/matching-names.ts, cityKey in
-- server/duplicates/normalise-place.ts); a test keeps the lists equal. Before, filters compared the
-- lower-cased text: the events of a contributor writing "U.S.A." or "New York, NY" were missing
-- from country=USA or city=New York, from saved searches and from the facets.
--
-- A place folded: lower-cased, accents dropped, every run of other characters one space. The
-- spellings are one constant each (a JSON object, looked up by binary search), and the keys are
-- never inlined (SET search_path): inlined, the constant was parsed wherever a statement named a
-- key, and as a CASE of 229 branches planning event_places_named took 7.7 ms instead of 0.8 (2.6
-- as the inlined object, 1.4 as it is).
CREATE FUNCTION event_place_folded(place text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT btrim(regexp_replace(
    translate(lower(place), 'áàâäãåāăąçćčďéèêëēėęěğíìîïīıłńňñóòôöõøōőřśšşťúùûüūůűýÿźžż',
      'aaaaaaaaacccdeeeeeeeegiiiiiilnnnoooooooorssstuuuuuuuyyzzz'),
    '[^a-z0-9]+', ' ', 'g'))
$$;

-- A country's key: a known spelling's two-letter code, any other country as folded.
CREATE FUNCTION event_country_key(country text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path = public AS $$
  SELECT coalesce('{
    "us": "us", "usa": "us", "u s": "us", "u s a": "us", "united states": "us",
    "united states of america": "us", "america": "us", "uk": "gb", "gb": "gb", "u k": "gb",
    "united kingdom": "gb", "great britain": "gb", "england": "gb", "scotland": "gb",
    "wales": "gb", "northern ireland": "gb", "de": "de", "germany": "de", "deutschland": "de",
    "fr": "fr", "france": "fr", "nl": "nl", "netherlands": "nl", "the netherlands": "nl",
    "holland": "nl", "es": "es", "spain": "es", "espana": "es", "it": "it", "italy": "it",
    "italia": "it", "ch": "ch", "switzerland": "ch", "schweiz": "ch", "suisse": "ch", "at": "at",
    "austria": "at", "be": "be", "belgium": "be", "pl": "pl", "poland": "pl", "polska": "pl",
    "cz": "cz", "czechia": "cz", "czech republic": "cz", "se": "se", "sweden": "se", "no": "no",
    "norway": "no", "dk": "dk", "denmark": "dk", "fi": "fi", "finland": "fi", "pt": "pt",
    "portugal": "pt", "ie": "ie", "ireland": "ie", "ca": "ca", "canada": "ca", "au": "au",
    "australia": "au", "in": "in", "india": "in", "jp": "jp", "japan": "jp", "br": "br",
    "brazil": "br", "brasil": "br", "mx": "mx", "mexico": "mx", "ar": "ar", "argentina": "ar",
    "nz": "nz", "new zealand": "nz", "sg": "sg", "singapore": "sg", "ae": "ae", "uae": "ae",
    "united arab emirates": "ae", "kr": "kr", "south korea": "kr", "korea": "kr", "cn": "cn",
    "china": "cn", "tw": "tw", "taiwan": "tw", "ua": "ua", "ukraine": "ua", "ro": "ro",
    "romania": "ro", "hu": "hu", "hungary": "hu", "gr": "gr", "greece": "gr", "tr": "tr",
    "turkey": "tr", "turkiye": "tr", "il": "il", "israel": "il", "za": "za",
    "south africa": "za", "ng": "ng", "nigeria": "ng", "ke": "ke", "kenya": "ke", "lt": "lt",
    "lithuania": "lt", "lv": "lv", "latvia": "lv", "ee": "ee", "estonia": "ee", "sk": "sk",
    "slovakia": "sk", "si": "si", "slovenia": "si", "hr": "hr", "croatia": "hr", "rs": "rs",
    "serbia": "rs", "bg": "bg", "bulgaria": "bg", "co": "co", "colombia": "co", "cl": "cl",
    "chile": "cl", "pe": "pe", "peru": "pe", "ph": "ph", "philippines": "ph", "id": "id",
    "indonesia": "id", "my": "my", "malaysia": "my", "th": "th", "thailand": "th", "vn": "vn",
    "vietnam": "vn", "lu": "lu", "luxembourg": "lu", "is": "is", "iceland": "is", "ru": "ru",
    "russia": "ru", "russian federation": "ru", "by": "by", "belarus": "by", "ge": "ge",
    "am": "am", "armenia": "am", "az": "az", "azerbaijan": "az", "kz": "kz", "kazakhstan": "kz",
    "ir": "ir", "iran": "ir", "pk": "pk", "pakistan": "pk", "bd": "bd", "bangladesh": "bd",
    "lk": "lk", "sri lanka": "lk", "np": "np", "nepal": "np", "hk": "hk", "hong kong": "hk",
    "sa": "sa", "saudi arabia": "sa", "qa": "qa", "qatar": "qa", "jo": "jo", "jordan": "jo",
    "lb": "lb", "lebanon": "lb", "eg": "eg", "egypt": "eg", "morocco": "ma", "tunisia": "tn",
    "dz": "dz", "algeria": "dz", "gh": "gh", "ghana": "gh", "ug": "ug", "uganda": "ug",
    "tz": "tz", "tanzania": "tz", "rw": "rw", "rwanda": "rw", "et": "et", "ethiopia": "et",
    "sn": "sn", "senegal": "sn", "cm": "cm", "cameroon": "cm", "zw": "zw", "zimbabwe": "zw",
    "zm": "zm", "zambia": "zm", "na": "na", "namibia": "na", "bw": "bw", "botswana": "bw",
    "cy": "cy", "cyprus": "cy", "malta": "mt", "ba": "ba", "bosnia and herzegovina": "ba",
    "mk": "mk", "north macedonia": "mk", "macedonia": "mk", "albania": "al", "montenegro": "me",
    "moldova": "md", "uy": "uy", "uruguay": "uy", "ec": "ec", "ecuador": "ec", "bo": "bo",
    "bolivia": "bo", "ve": "ve", "venezuela": "ve", "costa rica": "cr", "gt": "gt",
    "guatemala": "gt", "do": "do", "dominican republic": "do", "pr": "pr", "puerto rico": "pr",
    "panama": "pa"
  }'::jsonb ->> event_place_folded(country), nullif(event_place_folded(country), ''))
$$;

-- A city's key: its first part ("Austin, TX", "Zürich, Switzerland"), folded, in one spelling.
CREATE FUNCTION event_city_key(city text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path = public AS $$
  SELECT coalesce('{
    "nyc": "new york", "new york city": "new york", "sf": "san francisco", "munchen": "munich",
    "koln": "cologne", "wien": "vienna", "praha": "prague", "lisboa": "lisbon",
    "bruxelles": "brussels", "brussel": "brussels", "warszawa": "warsaw", "krakow": "krakow",
    "cracow": "krakow", "zurich": "zurich", "geneve": "geneva", "roma": "rome",
    "milano": "milan", "torino": "turin", "firenze": "florence", "napoli": "naples",
    "kobenhavn": "copenhagen", "goteborg": "gothenburg", "den haag": "the hague",
    "s gravenhage": "the hague", "bengaluru": "bangalore", "washington dc": "washington",
    "washington d c": "washington", "frankfurt am main": "frankfurt", "wroclaw": "wroclaw",
    "bucuresti": "bucharest", "sao paulo": "sao paulo", "kyiv": "kyiv", "kiev": "kyiv",
    "mumbai": "mumbai", "bombay": "mumbai"
  }'::jsonb ->> event_place_folded(split_part(city, ',', 1)),
    nullif(event_place_folded(split_part(city, ',', 1)), ''))
$$;

-- Kept with the row, so that a filter compares a column wherever it reads rows that another index
-- found (a text search's holders): a key's spellings cost microseconds an event. One statement, so
-- that the table is rewritten once.
ALTER TABLE events
  ADD COLUMN city_key text GENERATED ALWAYS AS (event_city_key(city)) STORED,
  ADD COLUMN country_key text GENERATED ALWAYS AS (event_country_key(country)) STORED;

-- The listing of one city or country, soonest first, reads these in order (as 010's). The indexes
-- on the lower-cased text stay: query interpretation looks stored places up by their text first.
CREATE INDEX events_city_key_idx ON events (city_key, starts_at, id);
CREATE INDEX events_country_key_idx ON events (country_key, starts_at, id);

-- Saved searches are anchored on the places' keys (migration 034's anchor otherwise unchanged).
DROP INDEX saved_searches_anchor_idx;
ALTER TABLE saved_searches DROP COLUMN anchor;
ALTER TABLE saved_searches ADD COLUMN anchor text NOT NULL GENERATED ALWAYS AS (
  CASE WHEN word_anchor IS NULL AND topic IS NULL
    THEN coalesce('c:' || event_city_key(city), 'n:' || event_country_key(country), '*')
    ELSE coalesce(word_anchor, 't:' || lower(topic))
      || coalesce('@c:' || event_city_key(city), '@n:' || event_country_key(country), '')
  END) STORED;
CREATE INDEX saved_searches_anchor_idx ON saved_searches (anchor) WHERE NOT paused;

-- Query understanding reads a place however the events spell it ("rust in the USA" where they say
-- "U.S.A.", "meetups in NYC" where they say "New York, NY"): a phrase that is no stored spelling
-- is looked up by its key, unless it is a country's code of two letters other than "uk" ("in",
-- "it", "us" are words before they are countries). As in 012 and 016 otherwise.
CREATE OR REPLACE FUNCTION event_places_named(phrases text[])
RETURNS TABLE (phrase text, city text, country text, topic boolean)
LANGUAGE sql STABLE PARALLEL SAFE
SET enable_seqscan = off
SET plan_cache_mode = force_generic_plan AS $$
  SELECT n.phrase, n.city, n.country,
    (n.city IS NOT NULL OR n.country IS NOT NULL) AND EXISTS (
      SELECT 1 FROM events e WHERE event_labels_lower(e.topics) @> ARRAY[n.phrase])
  FROM (
    SELECT p.phrase,
      coalesce(
        (SELECT e.city FROM events e WHERE lower(e.city) = p.phrase LIMIT 1),
        (SELECT e.city FROM events e WHERE e.city_key = event_city_key(p.phrase) LIMIT 1)) AS city,
      coalesce(
        (SELECT e.country FROM events e WHERE lower(e.country) = p.phrase LIMIT 1),
        (SELECT e.country FROM events e
         WHERE (length(p.phrase) > 2 OR p.phrase = 'uk')
           AND e.country_key = event_country_key(p.phrase) LIMIT 1)) AS country
    FROM unnest(phrases) AS p(phrase)
  ) AS n
$$;
