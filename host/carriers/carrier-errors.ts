// The two ways rendering a carrier can fail. They are handled differently upstream, so they are
// distinct classes rather than one error with a code.

/** The model's input cannot be carried (NUL, lone surrogate, too large): becomes a diagnostic for the model. */
export class CarrierInputError extends Error {
  override readonly name = 'CarrierInputError';
}

/** A translator asked for something invalid (bad template/params/via): a routing failure, never approximated. */
export class CarrierProtocolError extends Error {
  override readonly name = 'CarrierProtocolError';
}
