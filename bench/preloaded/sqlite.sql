-- make bench: sqlite3 on a workload that copies rows, blobs and pages
-- (bench/preloaded/real.sh runs it in memory, with the drop-in library
-- and without). Its output is thrown away; its work is the figure.
PRAGMA cache_size = -131072;
CREATE TABLE item(id INTEGER PRIMARY KEY, k INTEGER, name TEXT, body BLOB);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000)
INSERT INTO item(k, name, body)
	SELECT abs(random()) % 50000, hex(randomblob(4 + i % 28)), randomblob(16 + abs(random()) % 500) FROM n;
CREATE INDEX item_k ON item(k);
CREATE INDEX item_name ON item(name);
SELECT count(*), sum(length(body)) FROM item WHERE k < 25000;
SELECT k, count(*) AS c FROM item GROUP BY k ORDER BY c DESC, k LIMIT 5;
SELECT sum(length(a.body) + length(b.body)) FROM item a JOIN item b ON a.k = b.k WHERE a.id % 97 = 0;
UPDATE item SET body = body || randomblob(40) WHERE id % 5 = 0;
DELETE FROM item WHERE k % 10 = 3;
CREATE TABLE copy AS SELECT * FROM item;
SELECT count(*), sum(length(body)) FROM copy;
