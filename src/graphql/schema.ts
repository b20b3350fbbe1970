import { builder } from './builder.ts';
import '../registry/graphql.ts';
import '../work/graphql/todos.ts';
import '../work/graphql/claims.ts';
import '../work/graphql/leases.ts';
import '../work/graphql/lifecycle.ts';
import '../work/graphql/gates.ts';
import '../work/graphql/visions.ts';
import '../work/graphql/frontier.ts';
import '../work/graphql/external.ts';
import '../work/graphql/workspaces.ts';
import '../work/graphql/handoffs.ts';
import '../work/graphql/closure.ts';
import '../presence/graphql.ts';
import '../waits/graphql.ts';
import '../directory/graphql.ts';
import '../delivery/graphql/deliveries.ts';
import '../delivery/graphql/outcomes.ts';
import '../delivery/graphql/notices.ts';
import '../delivery/graphql/inbox.ts';
import '../delivery/graphql/listing.ts';
import '../delivery/graphql/roster.ts';
import '../ledger/graphql/events.ts';
import '../ledger/graphql/read.ts';
import '../ledger/graphql/checkpoint.ts';
import '../ledger/graphql/obligations.ts';

/** The whole schema: each schema file imported above adds its types and fields. */
export const schema = builder.toSchema({ sortSchema: true });
