-- The lab database of the (fictional) Halcyon Materials Lab, for PostgreSQL: the same tables, rows
-- and facts as halcyon_lab.sql (SQLite), with the units in column comments, where Postgres keeps them.
--   createdb halcyon_lab && psql -d halcyon_lab -f docs/examples/halcyon_lab_postgres.sql

CREATE TABLE samples (
  sample_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  formula TEXT NOT NULL,
  synthesis_temperature DOUBLE PRECISION,
  synthesized_on DATE,
  notes TEXT
);
COMMENT ON TABLE samples IS 'every sample the lab has made';
COMMENT ON COLUMN samples.name IS 'the label on the vial, such as HX-0042';
COMMENT ON COLUMN samples.formula IS 'chemical formula of the target compound';
COMMENT ON COLUMN samples.synthesis_temperature IS 'annealing temperature [K]';
COMMENT ON COLUMN samples.synthesized_on IS 'the day the synthesis ended';

CREATE TABLE experiments (
  experiment_id INTEGER PRIMARY KEY,
  title TEXT NOT NULL,
  instrument TEXT NOT NULL,
  operator TEXT,
  started_on DATE
);
COMMENT ON TABLE experiments IS 'one instrument session';
COMMENT ON COLUMN experiments.instrument IS 'the instrument used, such as Cary 5000 UV-vis';
COMMENT ON COLUMN experiments.operator IS 'initials of the person who ran it';

CREATE TABLE measurements (
  measurement_id INTEGER PRIMARY KEY,
  sample_id INTEGER NOT NULL REFERENCES samples (sample_id),
  experiment_id INTEGER NOT NULL REFERENCES experiments (experiment_id),
  measured_on DATE,
  band_gap DOUBLE PRECISION,
  density DOUBLE PRECISION,
  resistivity DOUBLE PRECISION,
  temperature DOUBLE PRECISION
);
COMMENT ON TABLE measurements IS 'what one experiment measured on one sample';
COMMENT ON COLUMN measurements.band_gap IS 'optical band gap [eV]';
COMMENT ON COLUMN measurements.density IS 'mass density [g/cm^3]';
COMMENT ON COLUMN measurements.resistivity IS 'electrical resistivity at room temperature [ohm*m]';
COMMENT ON COLUMN measurements.temperature IS 'sample temperature during the measurement [K]';

CREATE INDEX measurements_sample ON measurements (sample_id);
CREATE INDEX measurements_experiment ON measurements (experiment_id);

CREATE VIEW sample_band_gaps AS
  SELECT s.name, s.formula, m.band_gap, m.measured_on
  FROM samples AS s JOIN measurements AS m ON m.sample_id = s.sample_id
  WHERE m.band_gap IS NOT NULL;

INSERT INTO samples VALUES
  (1, 'HX-0042', 'LiFePO4', 973, '2026-01-14', 'olivine, carbon coated'),
  (2, 'HX-0057', 'LiFePO4', 1023, '2026-01-21', NULL),
  (3, 'HX-0063', 'LiMnPO4', 923, '2026-02-02', 'brownish; re-annealed once'),
  (4, 'HX-0071', 'NaFePO4', 873, '2026-02-09', NULL),
  (5, 'HX-0088', 'TiO2', 1173, '2026-02-20', 'anatase target'),
  (6, 'HX-0090', 'ZnO', 1073, '2026-03-03', NULL);

INSERT INTO experiments VALUES
  (1, 'UV-vis absorption, LFP series', 'Cary 5000 UV-vis', 'JK', '2026-01-28'),
  (2, 'Helium pycnometry, phosphates', 'AccuPyc II 1340', 'MB', '2026-02-12'),
  (3, 'Four-point probe, oxides', 'Jandel RM3000', 'JK', '2026-03-10');

INSERT INTO measurements VALUES
  (1, 1, 1, '2026-01-28', 3.62, NULL, NULL, 295),
  (2, 1, 1, '2026-01-29', 3.58, NULL, NULL, 295),
  (3, 2, 1, '2026-01-29', 3.71, NULL, NULL, 295),
  (4, 3, 1, '2026-02-03', 4.05, NULL, NULL, 295),
  (5, 1, 2, '2026-02-12', NULL, 3.58, NULL, 296),
  (6, 2, 2, '2026-02-12', NULL, 3.55, NULL, 296),
  (7, 4, 2, '2026-02-13', NULL, 3.66, NULL, 296),
  (8, 5, 3, '2026-03-10', 3.21, 3.89, 0.45, 294),
  (9, 6, 3, '2026-03-11', 3.30, 5.61, 0.012, 294);
