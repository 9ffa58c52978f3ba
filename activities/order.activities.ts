/**
 * Order activities: `createOrder` and `customerInput` (never retried by Temporal: a failure after
 * the request went out is ORDER_OUTCOME_UNKNOWN, settled by the workflow), `reconcileOrder` (the
 * order looked up by the responses it was made from), `retrieveOrder`, and `cancelOrder` (a
 * failure after sending is CANCEL_OUTCOME_UNKNOWN).
 */
import { orderCancelRq, orderCreateRq, orderRetrieveRq } from '../src/booking/intent-to-ndc';
import { summaryOfOrder } from '../src/booking/order-from-ndc';
import { requireMoney } from '../src/ndc/require-element';
import {
  isAuthenticationChallenge,
  NdcInvalidResponseError,
  type CustomerInputResponse,
  type OrderViewSuccess,
} from '../src/ndc-client';
import type { AirlineCall } from './airline-call';
import type {
  AuthenticationChallenge,
  CancelOrderInput,
  CancelOrderResult,
  CreateOrderInput,
  CreateOrderResult,
  CustomerInputInput,
  OrderSummary,
  ReconcileInput,
  ReconcileResult,
  RetrieveInput,
  RetrieveResult,
} from './booking.activities.types';

export function createOrderActivities(call: AirlineCall) {
  const { client, stamp, options, run } = call;

  async function createOrder(input: CreateOrderInput): Promise<CreateOrderResult | AuthenticationChallenge> {
    return run(
      async (attempt) => {
        const { ctx, priced, tokenId, securePayment, authentication } = input;
        const rq = orderCreateRq(ctx, stamp(ctx), priced, tokenId, securePayment, authentication);
        const answer = await client.orderCreate(rq, options(ctx));
        if (isAuthenticationChallenge(answer)) return challengeOf(answer, attempt);
        return { order: orderSummary(answer.rs, ctx.currency), orderViewXml: answer.xml, attempt };
      },
      { orderCreate: true },
    );
  }

  /** Looks the order up by each id in turn; the first found is the answer. */
  async function reconcileOrder(input: ReconcileInput): Promise<ReconcileResult> {
    const ids = input.lookupIds ?? (input.shoppingResponseId !== undefined ? [input.shoppingResponseId] : []);
    return run(async (attempt) => {
      for (const id of ids) {
        const found = await client.ordersByShoppingResponse(id, input.ctx.agency.id, options(input.ctx));
        if (found !== undefined)
          return { order: orderSummary(found.rs, input.ctx.currency), orderViewXml: found.xml, foundBy: id, attempt };
      }
      return { attempt };
    });
  }

  async function retrieveOrder(input: RetrieveInput): Promise<RetrieveResult> {
    return run(async (attempt) => {
      const { rs, xml } = await client.orderRetrieve(
        orderRetrieveRq(input.ctx, stamp(input.ctx), input),
        options(input.ctx),
      );
      return { order: orderSummary(rs, input.ctx.currency), orderViewXml: xml, attempt };
    });
  }

  return {
    createOrder,
    customerInput: (input: CustomerInputInput) => customerInput(call, input),
    reconcileOrder,
    retrieveOrder,
    cancelOrder: (input: CancelOrderInput) => cancelOrder(call, input),
  };
}

/** A CustomerInputRQ answer: a definite answer, no order (or change) yet; the airline holds it for its window. */
export function challengeOf(answer: CustomerInputResponse, attempt: number): AuthenticationChallenge {
  const { acsUrl, spmTxnReference, originalTransactionId } = answer.payment;
  return {
    kind: 'challenge',
    acsUrl,
    spmTxnReference,
    ...(originalTransactionId !== undefined ? { originalTransactionId } : {}),
    attempt,
  };
}

/**
 * The order's summary. `currency` (the one the booking asked for) is that of amounts the airline
 * sent without `Code` and without currency metadata.
 */
export function orderSummary(rs: OrderViewSuccess, currency: string): OrderSummary {
  const order = rs.orders[0];
  if (order === undefined) throw new NdcInvalidResponseError('OrderViewRS without an Order');
  return summaryOfOrder(order, rs.dataLists, currency);
}

/** CustomerInputRS; like createOrder, a failure after sending is ORDER_OUTCOME_UNKNOWN. */
async function customerInput(call: AirlineCall, input: CustomerInputInput): Promise<CreateOrderResult> {
  const { client, stamp, options, run, target } = call;
  return run(
    async (attempt) => {
      const { timeStamp, transactionIdentifier } = stamp();
      const { originalTransactionId } = input;
      const { rs, xml } = await client.customerInput(
        {
          target,
          version: '17.2',
          timeStamp,
          transactionIdentifier,
          correlationId: input.ctx.correlationId,
          kind: 'success',
          securePayments: [
            {
              paRes: input.paRes,
              status: input.status,
              spmTxnReference: input.spmTxnReference,
              ...(originalTransactionId !== undefined ? { originalTransactionId } : {}),
            },
          ],
        },
        options(input.ctx),
      );
      return { order: orderSummary(rs, input.ctx.currency), orderViewXml: xml, attempt };
    },
    { orderCreate: true },
  );
}

/** OrderCancelRQ; like createOrder, a failure after sending is CANCEL_OUTCOME_UNKNOWN. */
async function cancelOrder(call: AirlineCall, input: CancelOrderInput): Promise<CancelOrderResult> {
  const { client, stamp, options, run } = call;
  return run(
    async (attempt) => {
      const rs = await client.orderCancel(orderCancelRq(input.ctx, stamp(input.ctx), input), options(input.ctx));
      const first = rs.cancellations[0];
      if (first === undefined) throw new NdcInvalidResponseError('OrderCancelRS without a Response');
      const currency = { currency: input.ctx.currency };
      return {
        orderReference: first.orderReference,
        ...(first.refund !== undefined ? { refund: requireMoney(first.refund, 'Response/ChangeFees', currency) } : {}),
        ...(first.cancellationFee !== undefined
          ? { fee: requireMoney(first.cancellationFee, 'Response/ChangeFees', currency) }
          : {}),
        attempt,
      };
    },
    { orderCancel: true },
  );
}
