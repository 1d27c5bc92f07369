CREATE INDEX `orders_search_text_idx` ON `orders` (`search_text`);--> statement-breakpoint
-- issue 15: order search through a trigram index of the folded search text (features/orders/order-search.ts).
-- The index holds no copy of the text (content='orders'); triggers keep it in step with every write of
-- search_text, whichever code writes it, and the rebuild indexes the rows already there.
CREATE VIRTUAL TABLE `orders_fts` USING fts5(`search_text`, content='orders', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
INSERT INTO `orders_fts`(`orders_fts`) VALUES ('rebuild');
--> statement-breakpoint
CREATE TRIGGER `orders_fts_insert` AFTER INSERT ON `orders` WHEN new.`search_text` IS NOT NULL BEGIN
  INSERT INTO `orders_fts`(rowid, `search_text`) VALUES (new.`id`, new.`search_text`);
END;
--> statement-breakpoint
CREATE TRIGGER `orders_fts_delete` AFTER DELETE ON `orders` WHEN old.`search_text` IS NOT NULL BEGIN
  INSERT INTO `orders_fts`(`orders_fts`, rowid, `search_text`) VALUES ('delete', old.`id`, old.`search_text`);
END;
--> statement-breakpoint
CREATE TRIGGER `orders_fts_update` AFTER UPDATE OF `search_text` ON `orders` BEGIN
  INSERT INTO `orders_fts`(`orders_fts`, rowid, `search_text`) SELECT 'delete', old.`id`, old.`search_text` WHERE old.`search_text` IS NOT NULL;
  INSERT INTO `orders_fts`(rowid, `search_text`) SELECT new.`id`, new.`search_text` WHERE new.`search_text` IS NOT NULL;
END;
