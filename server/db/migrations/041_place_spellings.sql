-- Filters find an event however its contributor spelt the place. "USA", "U.S.A.", "United States"
-- and "us" are one country, as are "Germany" and "Deutschland"; "New York, NY", "NYC" and "new
-- york" one city, as are "München" and "Munich". The spellings are those the duplicate matcher
-- already treats as one (COUNTRY_ALIASES and CITY_ALIASES in server/matching-names.ts, cityKey in
-- server/duplicates/normalise-place.ts); a test keeps the lists equal. Before, filters compared the
-- lower-cased text: the events of a contributor writing "U.S.A." or "New York, NY" were missing
-- from country=USA or city=New York, from saved searches and from the facets.
--
-- A place folded: lower-cased, accents dropped, every run of other characters one space. Each
-- function is a single expression, so that the planner inlines it.
CREATE FUNCTION event_place_folded(place text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT btrim(regexp_replace(
    translate(lower(place), 'áàâäãåāăąçćčďéèêëēėęěğíìîïīıłńňñóòôöõøōőřśšşťúùûüūůűýÿźžż',
      'aaaaaaaaacccdeeeeeeeegiiiiiilnnnoooooooorssstuuuuuuuyyzzz'),
    '[^a-z0-9]+', ' ', 'g'))
$$;

-- A country's key: a known spelling's two-letter code, any other country as folded.
CREATE FUNCTION event_country_key(country text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE event_place_folded(country)
    WHEN 'us' THEN 'us'
    WHEN 'usa' THEN 'us'
    WHEN 'u s' THEN 'us'
    WHEN 'u s a' THEN 'us'
    WHEN 'united states' THEN 'us'
    WHEN 'united states of america' THEN 'us'
    WHEN 'america' THEN 'us'
    WHEN 'uk' THEN 'gb'
    WHEN 'gb' THEN 'gb'
    WHEN 'u k' THEN 'gb'
    WHEN 'united kingdom' THEN 'gb'
    WHEN 'great britain' THEN 'gb'
    WHEN 'england' THEN 'gb'
    WHEN 'scotland' THEN 'gb'
    WHEN 'wales' THEN 'gb'
    WHEN 'northern ireland' THEN 'gb'
    WHEN 'de' THEN 'de'
    WHEN 'germany' THEN 'de'
    WHEN 'deutschland' THEN 'de'
    WHEN 'fr' THEN 'fr'
    WHEN 'france' THEN 'fr'
    WHEN 'nl' THEN 'nl'
    WHEN 'netherlands' THEN 'nl'
    WHEN 'the netherlands' THEN 'nl'
    WHEN 'holland' THEN 'nl'
    WHEN 'es' THEN 'es'
    WHEN 'spain' THEN 'es'
    WHEN 'espana' THEN 'es'
    WHEN 'it' THEN 'it'
    WHEN 'italy' THEN 'it'
    WHEN 'italia' THEN 'it'
    WHEN 'ch' THEN 'ch'
    WHEN 'switzerland' THEN 'ch'
    WHEN 'schweiz' THEN 'ch'
    WHEN 'suisse' THEN 'ch'
    WHEN 'at' THEN 'at'
    WHEN 'austria' THEN 'at'
    WHEN 'be' THEN 'be'
    WHEN 'belgium' THEN 'be'
    WHEN 'pl' THEN 'pl'
    WHEN 'poland' THEN 'pl'
    WHEN 'polska' THEN 'pl'
    WHEN 'cz' THEN 'cz'
    WHEN 'czechia' THEN 'cz'
    WHEN 'czech republic' THEN 'cz'
    WHEN 'se' THEN 'se'
    WHEN 'sweden' THEN 'se'
    WHEN 'no' THEN 'no'
    WHEN 'norway' THEN 'no'
    WHEN 'dk' THEN 'dk'
    WHEN 'denmark' THEN 'dk'
    WHEN 'fi' THEN 'fi'
    WHEN 'finland' THEN 'fi'
    WHEN 'pt' THEN 'pt'
    WHEN 'portugal' THEN 'pt'
    WHEN 'ie' THEN 'ie'
    WHEN 'ireland' THEN 'ie'
    WHEN 'ca' THEN 'ca'
    WHEN 'canada' THEN 'ca'
    WHEN 'au' THEN 'au'
    WHEN 'australia' THEN 'au'
    WHEN 'in' THEN 'in'
    WHEN 'india' THEN 'in'
    WHEN 'jp' THEN 'jp'
    WHEN 'japan' THEN 'jp'
    WHEN 'br' THEN 'br'
    WHEN 'brazil' THEN 'br'
    WHEN 'brasil' THEN 'br'
    WHEN 'mx' THEN 'mx'
    WHEN 'mexico' THEN 'mx'
    WHEN 'ar' THEN 'ar'
    WHEN 'argentina' THEN 'ar'
    WHEN 'nz' THEN 'nz'
    WHEN 'new zealand' THEN 'nz'
    WHEN 'sg' THEN 'sg'
    WHEN 'singapore' THEN 'sg'
    WHEN 'ae' THEN 'ae'
    WHEN 'uae' THEN 'ae'
    WHEN 'united arab emirates' THEN 'ae'
    WHEN 'kr' THEN 'kr'
    WHEN 'south korea' THEN 'kr'
    WHEN 'korea' THEN 'kr'
    WHEN 'cn' THEN 'cn'
    WHEN 'china' THEN 'cn'
    WHEN 'tw' THEN 'tw'
    WHEN 'taiwan' THEN 'tw'
    WHEN 'ua' THEN 'ua'
    WHEN 'ukraine' THEN 'ua'
    WHEN 'ro' THEN 'ro'
    WHEN 'romania' THEN 'ro'
    WHEN 'hu' THEN 'hu'
    WHEN 'hungary' THEN 'hu'
    WHEN 'gr' THEN 'gr'
    WHEN 'greece' THEN 'gr'
    WHEN 'tr' THEN 'tr'
    WHEN 'turkey' THEN 'tr'
    WHEN 'turkiye' THEN 'tr'
    WHEN 'il' THEN 'il'
    WHEN 'israel' THEN 'il'
    WHEN 'za' THEN 'za'
    WHEN 'south africa' THEN 'za'
    WHEN 'ng' THEN 'ng'
    WHEN 'nigeria' THEN 'ng'
    WHEN 'ke' THEN 'ke'
    WHEN 'kenya' THEN 'ke'
    WHEN 'lt' THEN 'lt'
    WHEN 'lithuania' THEN 'lt'
    WHEN 'lv' THEN 'lv'
    WHEN 'latvia' THEN 'lv'
    WHEN 'ee' THEN 'ee'
    WHEN 'estonia' THEN 'ee'
    WHEN 'sk' THEN 'sk'
    WHEN 'slovakia' THEN 'sk'
    WHEN 'si' THEN 'si'
    WHEN 'slovenia' THEN 'si'
    WHEN 'hr' THEN 'hr'
    WHEN 'croatia' THEN 'hr'
    WHEN 'rs' THEN 'rs'
    WHEN 'serbia' THEN 'rs'
    WHEN 'bg' THEN 'bg'
    WHEN 'bulgaria' THEN 'bg'
    WHEN 'co' THEN 'co'
    WHEN 'colombia' THEN 'co'
    WHEN 'cl' THEN 'cl'
    WHEN 'chile' THEN 'cl'
    WHEN 'pe' THEN 'pe'
    WHEN 'peru' THEN 'pe'
    WHEN 'ph' THEN 'ph'
    WHEN 'philippines' THEN 'ph'
    WHEN 'id' THEN 'id'
    WHEN 'indonesia' THEN 'id'
    WHEN 'my' THEN 'my'
    WHEN 'malaysia' THEN 'my'
    WHEN 'th' THEN 'th'
    WHEN 'thailand' THEN 'th'
    WHEN 'vn' THEN 'vn'
    WHEN 'vietnam' THEN 'vn'
    WHEN 'lu' THEN 'lu'
    WHEN 'luxembourg' THEN 'lu'
    WHEN 'is' THEN 'is'
    WHEN 'iceland' THEN 'is'
    WHEN 'ru' THEN 'ru'
    WHEN 'russia' THEN 'ru'
    WHEN 'russian federation' THEN 'ru'
    WHEN 'by' THEN 'by'
    WHEN 'belarus' THEN 'by'
    WHEN 'ge' THEN 'ge'
    WHEN 'am' THEN 'am'
    WHEN 'armenia' THEN 'am'
    WHEN 'az' THEN 'az'
    WHEN 'azerbaijan' THEN 'az'
    WHEN 'kz' THEN 'kz'
    WHEN 'kazakhstan' THEN 'kz'
    WHEN 'ir' THEN 'ir'
    WHEN 'iran' THEN 'ir'
    WHEN 'pk' THEN 'pk'
    WHEN 'pakistan' THEN 'pk'
    WHEN 'bd' THEN 'bd'
    WHEN 'bangladesh' THEN 'bd'
    WHEN 'lk' THEN 'lk'
    WHEN 'sri lanka' THEN 'lk'
    WHEN 'np' THEN 'np'
    WHEN 'nepal' THEN 'np'
    WHEN 'hk' THEN 'hk'
    WHEN 'hong kong' THEN 'hk'
    WHEN 'sa' THEN 'sa'
    WHEN 'saudi arabia' THEN 'sa'
    WHEN 'qa' THEN 'qa'
    WHEN 'qatar' THEN 'qa'
    WHEN 'jo' THEN 'jo'
    WHEN 'jordan' THEN 'jo'
    WHEN 'lb' THEN 'lb'
    WHEN 'lebanon' THEN 'lb'
    WHEN 'eg' THEN 'eg'
    WHEN 'egypt' THEN 'eg'
    WHEN 'morocco' THEN 'ma'
    WHEN 'tunisia' THEN 'tn'
    WHEN 'dz' THEN 'dz'
    WHEN 'algeria' THEN 'dz'
    WHEN 'gh' THEN 'gh'
    WHEN 'ghana' THEN 'gh'
    WHEN 'ug' THEN 'ug'
    WHEN 'uganda' THEN 'ug'
    WHEN 'tz' THEN 'tz'
    WHEN 'tanzania' THEN 'tz'
    WHEN 'rw' THEN 'rw'
    WHEN 'rwanda' THEN 'rw'
    WHEN 'et' THEN 'et'
    WHEN 'ethiopia' THEN 'et'
    WHEN 'sn' THEN 'sn'
    WHEN 'senegal' THEN 'sn'
    WHEN 'cm' THEN 'cm'
    WHEN 'cameroon' THEN 'cm'
    WHEN 'zw' THEN 'zw'
    WHEN 'zimbabwe' THEN 'zw'
    WHEN 'zm' THEN 'zm'
    WHEN 'zambia' THEN 'zm'
    WHEN 'na' THEN 'na'
    WHEN 'namibia' THEN 'na'
    WHEN 'bw' THEN 'bw'
    WHEN 'botswana' THEN 'bw'
    WHEN 'cy' THEN 'cy'
    WHEN 'cyprus' THEN 'cy'
    WHEN 'malta' THEN 'mt'
    WHEN 'ba' THEN 'ba'
    WHEN 'bosnia and herzegovina' THEN 'ba'
    WHEN 'mk' THEN 'mk'
    WHEN 'north macedonia' THEN 'mk'
    WHEN 'macedonia' THEN 'mk'
    WHEN 'albania' THEN 'al'
    WHEN 'montenegro' THEN 'me'
    WHEN 'moldova' THEN 'md'
    WHEN 'uy' THEN 'uy'
    WHEN 'uruguay' THEN 'uy'
    WHEN 'ec' THEN 'ec'
    WHEN 'ecuador' THEN 'ec'
    WHEN 'bo' THEN 'bo'
    WHEN 'bolivia' THEN 'bo'
    WHEN 've' THEN 've'
    WHEN 'venezuela' THEN 've'
    WHEN 'costa rica' THEN 'cr'
    WHEN 'gt' THEN 'gt'
    WHEN 'guatemala' THEN 'gt'
    WHEN 'do' THEN 'do'
    WHEN 'dominican republic' THEN 'do'
    WHEN 'pr' THEN 'pr'
    WHEN 'puerto rico' THEN 'pr'
    WHEN 'panama' THEN 'pa'
    ELSE nullif(event_place_folded(country), '')
  END
$$;

-- A city's key: its first part ("Austin, TX", "Zürich, Switzerland"), folded, in one spelling.
CREATE FUNCTION event_city_key(city text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE event_place_folded(split_part(city, ',', 1))
    WHEN 'nyc' THEN 'new york'
    WHEN 'new york city' THEN 'new york'
    WHEN 'sf' THEN 'san francisco'
    WHEN 'munchen' THEN 'munich'
    WHEN 'koln' THEN 'cologne'
    WHEN 'wien' THEN 'vienna'
    WHEN 'praha' THEN 'prague'
    WHEN 'lisboa' THEN 'lisbon'
    WHEN 'bruxelles' THEN 'brussels'
    WHEN 'brussel' THEN 'brussels'
    WHEN 'warszawa' THEN 'warsaw'
    WHEN 'krakow' THEN 'krakow'
    WHEN 'cracow' THEN 'krakow'
    WHEN 'zurich' THEN 'zurich'
    WHEN 'geneve' THEN 'geneva'
    WHEN 'roma' THEN 'rome'
    WHEN 'milano' THEN 'milan'
    WHEN 'torino' THEN 'turin'
    WHEN 'firenze' THEN 'florence'
    WHEN 'napoli' THEN 'naples'
    WHEN 'kobenhavn' THEN 'copenhagen'
    WHEN 'goteborg' THEN 'gothenburg'
    WHEN 'den haag' THEN 'the hague'
    WHEN 's gravenhage' THEN 'the hague'
    WHEN 'bengaluru' THEN 'bangalore'
    WHEN 'washington dc' THEN 'washington'
    WHEN 'washington d c' THEN 'washington'
    WHEN 'frankfurt am main' THEN 'frankfurt'
    WHEN 'wroclaw' THEN 'wroclaw'
    WHEN 'bucuresti' THEN 'bucharest'
    WHEN 'sao paulo' THEN 'sao paulo'
    WHEN 'kyiv' THEN 'kyiv'
    WHEN 'kiev' THEN 'kyiv'
    WHEN 'mumbai' THEN 'mumbai'
    WHEN 'bombay' THEN 'mumbai'
    ELSE nullif(event_place_folded(split_part(city, ',', 1)), '')
  END
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
