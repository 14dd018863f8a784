-- Each sequential look's futility bound for |t|, under which its target was futile (a target with a smallest change,
-- mde=): NULL where the look had none (no smallest change, fewer than ten pairs, the last look, a significant look,
-- a bound of +infinity) and in every look stored before this column. Portable SQL: runs on H2 and PostgreSQL alike.
ALTER TABLE sequential_look ADD COLUMN t_futility DOUBLE PRECISION;
