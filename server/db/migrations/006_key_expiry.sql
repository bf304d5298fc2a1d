-- Key lifetime: a key may end at a set time (NULL: never). An expired key is refused with 401.
ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;
