import { builder } from './builder.ts';
import '../registry/graphql.ts';
import '../work/graphql.ts';
import '../presence/graphql.ts';
import '../waits/graphql.ts';
import '../directory/graphql.ts';
import '../delivery/graphql/deliveries.ts';
import '../delivery/graphql/outcomes.ts';
import '../delivery/graphql/inbox.ts';
import '../delivery/graphql/roster.ts';
import '../ledger/graphql/events.ts';
import '../ledger/graphql/read.ts';
import '../ledger/graphql/checkpoint.ts';

/** The whole schema: each domain's graphql.ts adds its types and fields when imported above. */
export const schema = builder.toSchema({ sortSchema: true });
