/**
 * The schema entry: imports the schema files of every domain, each of which adds its types and
 * fields to the builder, and builds the schema. It sits above the domains it imports; only the
 * server and the scripts that print the schema import it.
 */

import { builder } from './graphql/builder.ts';
import './registry/graphql/goals.ts';
import './registry/graphql/agents.ts';
import './registry/graphql/credentials.ts';
import './registry/graphql/delegations.ts';
import './work/graphql/todos.ts';
import './work/graphql/pages.ts';
import './work/graphql/claims.ts';
import './work/graphql/leases.ts';
import './work/graphql/lifecycle.ts';
import './work/graphql/gates.ts';
import './work/graphql/visions.ts';
import './work/graphql/frontier.ts';
import './work/graphql/external.ts';
import './work/graphql/workspaces.ts';
import './work/graphql/handoffs.ts';
import './work/graphql/closure.ts';
import './presence/graphql/presence.ts';
import './presence/graphql/providers.ts';
import './presence/graphql/reports.ts';
import './presence/graphql/observation.ts';
import './presence/graphql/changes.ts';
import './waits/graphql.ts';
import './directory/graphql.ts';
import './delivery/graphql/deliveries.ts';
import './delivery/graphql/outcomes.ts';
import './delivery/graphql/notices.ts';
import './delivery/graphql/inbox.ts';
import './delivery/graphql/listing.ts';
import './delivery/graphql/roster.ts';
import './delivery/graphql/health.ts';
import './ledger/graphql/events.ts';
import './ledger/graphql/read.ts';
import './ledger/graphql/checkpoint.ts';
import './ledger/graphql/obligations.ts';

/** The whole schema: each schema file imported above adds its types and fields. */
export const schema = builder.toSchema({ sortSchema: true });
