// A routing failure: the router cannot produce a faithful answer (a translator broke its
// protocol, asked for a carrier the request lacks, or history no longer matches the ledger).
// It is reported, never approximated.
export class RoutingFailure extends Error {
  override readonly name = 'RoutingFailure';
}
