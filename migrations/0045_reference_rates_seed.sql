-- Reference rates for late-payment interest (decisions/064): the published values, by hand.
-- A row is a change of a series effective from its date; "in force on D" is the series' latest
-- row with effective_on <= D. Values in basis points (4.50% = 450). Each row names its source.
-- ecb_mro: the ECB's main refinancing operations rate, every change since 27 July 2022 (and the
--   0.00% in force before it, so debts from 1 January 2022 have a rate).
-- boe_base: the Bank of England's Bank Rate, every change since 2022 (and the 0.25% in force on
--   1 January 2022).
-- de_basiszins: the Bundesbank's Basiszinssatz on each 1 January and 1 July since 2022.
-- Verified through January 2026 (the ECB and the Bank of England held in February 2026; the
-- Basiszinssatz of 1 January 2026 is 1.27%). Later values are NOT here: the operator adds them
-- with scripts/reference-rates.mjs (README, "Reference rates"). A value an operator already added
-- for the same series and day is kept (ON CONFLICT DO NOTHING; any other failure still fails).
INSERT INTO `reference_rates` (`series`, `effective_on`, `rate_bp`, `source`) VALUES
  ('ecb_mro', '2016-03-16', 0, 'ECB, key ECB interest rates (main refinancing operations, with effect from): https://www.ecb.europa.eu/stats/policy_and_exchange_rates/key_ecb_interest_rates/html/index.en.html'),
  ('ecb_mro', '2022-07-27', 50, 'ECB, key ECB interest rates (main refinancing operations, with effect from): https://www.ecb.europa.eu/stats/policy_and_exchange_rates/key_ecb_interest_rates/html/index.en.html'),
  ('ecb_mro', '2022-09-14', 125, 'ECB, key ECB interest rates (main refinancing operations, with effect from): https://www.ecb.europa.eu/stats/policy_and_exchange_rates/key_ecb_interest_rates/html/index.en.html'),
  ('ecb_mro', '2022-11-02', 200, 'ECB, key ECB interest rates (main refinancing operations, with effect from): https://www.ecb.europa.eu/stats/policy_and_exchange_rates/key_ecb_interest_rates/html/index.en.html'),
  ('ecb_mro', '2022-12-21', 250, 'ECB, key ECB interest rates (main refinancing operations, with effect from): https://www.ecb.europa.eu/stats/policy_and_exchange_rates/key_ecb_interest_rates/html/index.en.html'),
  ('ecb_mro', '2023-02-08', 300, 'ECB, key ECB interest rates (main refinancing operations, with effect from): https://www.ecb.europa.eu/stats/policy_and_exchange_rates/key_ecb_interest_rates/html/index.en.html'),
  ('ecb_mro', '2023-03-22', 350, 'ECB, key ECB interest rates (main refinancing operations, with effect from): https://www.ecb.europa.eu/stats/policy_and_exchange_rates/key_ecb_interest_rates/html/index.en.html'),
  ('ecb_mro', '2023-05-10', 375, 'ECB, key ECB interest rates (main refinancing operations, with effect from): https://www.ecb.europa.eu/stats/policy_and_exchange_rates/key_ecb_interest_rates/html/index.en.html'),
  ('ecb_mro', '2023-06-21', 400, 'ECB, key ECB interest rates (main refinancing operations, with effect from): https://www.ecb.europa.eu/stats/policy_and_exchange_rates/key_ecb_interest_rates/html/index.en.html'),
  ('ecb_mro', '2023-08-02', 425, 'ECB, key ECB interest rates (main refinancing operations, with effect from): https://www.ecb.europa.eu/stats/policy_and_exchange_rates/key_ecb_interest_rates/html/index.en.html'),
  ('ecb_mro', '2023-09-20', 450, 'ECB, key ECB interest rates (main refinancing operations, with effect from): https://www.ecb.europa.eu/stats/policy_and_exchange_rates/key_ecb_interest_rates/html/index.en.html'),
  ('ecb_mro', '2024-06-12', 425, 'ECB, key ECB interest rates (main refinancing operations, with effect from): https://www.ecb.europa.eu/stats/policy_and_exchange_rates/key_ecb_interest_rates/html/index.en.html'),
  ('ecb_mro', '2024-09-18', 365, 'ECB, key ECB interest rates (main refinancing operations, with effect from): https://www.ecb.europa.eu/stats/policy_and_exchange_rates/key_ecb_interest_rates/html/index.en.html'),
  ('ecb_mro', '2024-10-23', 340, 'ECB, key ECB interest rates (main refinancing operations, with effect from): https://www.ecb.europa.eu/stats/policy_and_exchange_rates/key_ecb_interest_rates/html/index.en.html'),
  ('ecb_mro', '2024-12-18', 315, 'ECB, key ECB interest rates (main refinancing operations, with effect from): https://www.ecb.europa.eu/stats/policy_and_exchange_rates/key_ecb_interest_rates/html/index.en.html'),
  ('ecb_mro', '2025-02-05', 290, 'ECB, key ECB interest rates (main refinancing operations, with effect from): https://www.ecb.europa.eu/stats/policy_and_exchange_rates/key_ecb_interest_rates/html/index.en.html'),
  ('ecb_mro', '2025-03-12', 265, 'ECB, key ECB interest rates (main refinancing operations, with effect from): https://www.ecb.europa.eu/stats/policy_and_exchange_rates/key_ecb_interest_rates/html/index.en.html'),
  ('ecb_mro', '2025-04-23', 240, 'ECB, key ECB interest rates (main refinancing operations, with effect from): https://www.ecb.europa.eu/stats/policy_and_exchange_rates/key_ecb_interest_rates/html/index.en.html'),
  ('ecb_mro', '2025-06-11', 215, 'ECB, key ECB interest rates (main refinancing operations, with effect from): https://www.ecb.europa.eu/stats/policy_and_exchange_rates/key_ecb_interest_rates/html/index.en.html'),
  ('boe_base', '2021-12-16', 25, 'Bank of England, Official Bank Rate history: https://www.bankofengland.co.uk/boeapps/database/Bank-Rate.asp'),
  ('boe_base', '2022-02-03', 50, 'Bank of England, Official Bank Rate history: https://www.bankofengland.co.uk/boeapps/database/Bank-Rate.asp'),
  ('boe_base', '2022-03-17', 75, 'Bank of England, Official Bank Rate history: https://www.bankofengland.co.uk/boeapps/database/Bank-Rate.asp'),
  ('boe_base', '2022-05-05', 100, 'Bank of England, Official Bank Rate history: https://www.bankofengland.co.uk/boeapps/database/Bank-Rate.asp'),
  ('boe_base', '2022-06-16', 125, 'Bank of England, Official Bank Rate history: https://www.bankofengland.co.uk/boeapps/database/Bank-Rate.asp'),
  ('boe_base', '2022-08-04', 175, 'Bank of England, Official Bank Rate history: https://www.bankofengland.co.uk/boeapps/database/Bank-Rate.asp'),
  ('boe_base', '2022-09-22', 225, 'Bank of England, Official Bank Rate history: https://www.bankofengland.co.uk/boeapps/database/Bank-Rate.asp'),
  ('boe_base', '2022-11-03', 300, 'Bank of England, Official Bank Rate history: https://www.bankofengland.co.uk/boeapps/database/Bank-Rate.asp'),
  ('boe_base', '2022-12-15', 350, 'Bank of England, Official Bank Rate history: https://www.bankofengland.co.uk/boeapps/database/Bank-Rate.asp'),
  ('boe_base', '2023-02-02', 400, 'Bank of England, Official Bank Rate history: https://www.bankofengland.co.uk/boeapps/database/Bank-Rate.asp'),
  ('boe_base', '2023-03-23', 425, 'Bank of England, Official Bank Rate history: https://www.bankofengland.co.uk/boeapps/database/Bank-Rate.asp'),
  ('boe_base', '2023-05-11', 450, 'Bank of England, Official Bank Rate history: https://www.bankofengland.co.uk/boeapps/database/Bank-Rate.asp'),
  ('boe_base', '2023-06-22', 500, 'Bank of England, Official Bank Rate history: https://www.bankofengland.co.uk/boeapps/database/Bank-Rate.asp'),
  ('boe_base', '2023-08-03', 525, 'Bank of England, Official Bank Rate history: https://www.bankofengland.co.uk/boeapps/database/Bank-Rate.asp'),
  ('boe_base', '2024-08-01', 500, 'Bank of England, Official Bank Rate history: https://www.bankofengland.co.uk/boeapps/database/Bank-Rate.asp'),
  ('boe_base', '2024-11-07', 475, 'Bank of England, Official Bank Rate history: https://www.bankofengland.co.uk/boeapps/database/Bank-Rate.asp'),
  ('boe_base', '2025-02-06', 450, 'Bank of England, Official Bank Rate history: https://www.bankofengland.co.uk/boeapps/database/Bank-Rate.asp'),
  ('boe_base', '2025-05-08', 425, 'Bank of England, Official Bank Rate history: https://www.bankofengland.co.uk/boeapps/database/Bank-Rate.asp'),
  ('boe_base', '2025-08-07', 400, 'Bank of England, Official Bank Rate history: https://www.bankofengland.co.uk/boeapps/database/Bank-Rate.asp'),
  ('boe_base', '2025-12-18', 375, 'Bank of England, Official Bank Rate history: https://www.bankofengland.co.uk/boeapps/database/Bank-Rate.asp'),
  ('de_basiszins', '2022-01-01', -88, 'Deutsche Bundesbank, Basiszinssatz nach § 247 BGB: https://www.bundesbank.de/de/bundesbank/organisation/agb-und-regelungen/basiszinssatz-607820'),
  ('de_basiszins', '2022-07-01', -88, 'Deutsche Bundesbank, Basiszinssatz nach § 247 BGB: https://www.bundesbank.de/de/bundesbank/organisation/agb-und-regelungen/basiszinssatz-607820'),
  ('de_basiszins', '2023-01-01', 162, 'Deutsche Bundesbank, Basiszinssatz nach § 247 BGB: https://www.bundesbank.de/de/bundesbank/organisation/agb-und-regelungen/basiszinssatz-607820'),
  ('de_basiszins', '2023-07-01', 312, 'Deutsche Bundesbank, Basiszinssatz nach § 247 BGB: https://www.bundesbank.de/de/bundesbank/organisation/agb-und-regelungen/basiszinssatz-607820'),
  ('de_basiszins', '2024-01-01', 362, 'Deutsche Bundesbank, Basiszinssatz nach § 247 BGB: https://www.bundesbank.de/de/bundesbank/organisation/agb-und-regelungen/basiszinssatz-607820'),
  ('de_basiszins', '2024-07-01', 337, 'Deutsche Bundesbank, Basiszinssatz nach § 247 BGB: https://www.bundesbank.de/de/bundesbank/organisation/agb-und-regelungen/basiszinssatz-607820'),
  ('de_basiszins', '2025-01-01', 227, 'Deutsche Bundesbank, Basiszinssatz nach § 247 BGB: https://www.bundesbank.de/de/bundesbank/organisation/agb-und-regelungen/basiszinssatz-607820'),
  ('de_basiszins', '2025-07-01', 127, 'Deutsche Bundesbank, Basiszinssatz nach § 247 BGB: https://www.bundesbank.de/de/bundesbank/organisation/agb-und-regelungen/basiszinssatz-607820'),
  ('de_basiszins', '2026-01-01', 127, 'Deutsche Bundesbank, Basiszinssatz nach § 247 BGB: https://www.bundesbank.de/de/bundesbank/organisation/agb-und-regelungen/basiszinssatz-607820')
ON CONFLICT (`series`, `effective_on`) DO NOTHING;
