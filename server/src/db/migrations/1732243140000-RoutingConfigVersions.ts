import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the routing step reads per message (a connection's messages and limits, its queues, the
 * queues' option trees, the company's hours) is cached in each process (issue 14). A per-company
 * version, bumped by triggers in the transaction of every write to those rows, tells every
 * process when its copy is stale: the routing step reads the version with the ticket's bot state
 * (one round trip it made anyway), so a change is seen by the next message, in any process, with
 * no message between processes. The rows are tiny and written only when the configuration
 * changes. No foreign key: a company's deletion cascades into its queues, whose triggers then
 * bump a version row nobody reads again.
 */
export class RoutingConfigVersions1732243140000 implements MigrationInterface {
  name = 'RoutingConfigVersions1732243140000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE routing_config_versions (
        "companyId" integer PRIMARY KEY,
        version bigint NOT NULL DEFAULT 1
      );
      CREATE FUNCTION routing_config_bump(company integer) RETURNS void LANGUAGE sql AS $$
        INSERT INTO routing_config_versions ("companyId") SELECT company WHERE company IS NOT NULL
        ON CONFLICT ("companyId") DO UPDATE SET version = routing_config_versions.version + 1;
      $$;
      -- Each table's branch names only its own columns (a record's fields are resolved per use).
      CREATE FUNCTION bump_routing_config() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_TABLE_NAME = 'companies' THEN
          PERFORM routing_config_bump(NEW.id);
        ELSIF TG_TABLE_NAME = 'whatsapp_queues' THEN
          IF TG_OP <> 'INSERT' THEN
            PERFORM routing_config_bump((SELECT "companyId" FROM whatsapps WHERE id = OLD."whatsappId"));
          END IF;
          IF TG_OP <> 'DELETE' THEN
            PERFORM routing_config_bump((SELECT "companyId" FROM whatsapps WHERE id = NEW."whatsappId"));
          END IF;
        ELSE
          IF TG_OP <> 'INSERT' THEN
            PERFORM routing_config_bump(OLD."companyId");
          END IF;
          IF TG_OP <> 'DELETE' THEN
            PERFORM routing_config_bump(NEW."companyId");
          END IF;
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER routing_config_whatsapps
        AFTER INSERT OR DELETE OR UPDATE OF "companyId", "greetingMessage", "outOfHoursMessage",
          "complationMessage", "ratingMessage", "expiresInactiveMessage", "promptId",
          "maxUseBotQueues", "timeUseBotQueues"
        ON whatsapps FOR EACH ROW EXECUTE FUNCTION bump_routing_config();
      CREATE TRIGGER routing_config_queues AFTER INSERT OR UPDATE OR DELETE ON queues
        FOR EACH ROW EXECUTE FUNCTION bump_routing_config();
      CREATE TRIGGER routing_config_whatsapp_queues
        AFTER INSERT OR UPDATE OR DELETE ON whatsapp_queues
        FOR EACH ROW EXECUTE FUNCTION bump_routing_config();
      CREATE TRIGGER routing_config_queue_options AFTER INSERT OR UPDATE OR DELETE ON queue_options
        FOR EACH ROW EXECUTE FUNCTION bump_routing_config();
      CREATE TRIGGER routing_config_companies AFTER UPDATE OF schedules ON companies
        FOR EACH ROW EXECUTE FUNCTION bump_routing_config();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER IF EXISTS routing_config_companies ON companies;
      DROP TRIGGER IF EXISTS routing_config_queue_options ON queue_options;
      DROP TRIGGER IF EXISTS routing_config_whatsapp_queues ON whatsapp_queues;
      DROP TRIGGER IF EXISTS routing_config_queues ON queues;
      DROP TRIGGER IF EXISTS routing_config_whatsapps ON whatsapps;
      DROP FUNCTION IF EXISTS bump_routing_config();
      DROP FUNCTION IF EXISTS routing_config_bump(integer);
      DROP TABLE IF EXISTS routing_config_versions;
    `);
  }
}
