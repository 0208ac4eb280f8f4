/** The handler of each request type: one module per operation. */
import type { RequestType } from '../../../schemas/fields';
import type { OperationHandler } from '../types';
import { accountcheck } from './accountcheck';
import { auth } from './auth';
import { transactionquery, transactionupdate } from './followups';
import { riskdec } from './riskdec';
import { store } from './store';
import { subscription } from './subscription';
import { threedquery } from './threedquery';

export const HANDLERS: Readonly<Record<RequestType, OperationHandler>> = {
  AUTH: auth,
  SUBSCRIPTION: subscription,
  THREEDQUERY: threedquery,
  ACCOUNTCHECK: accountcheck,
  STORE: store,
  RISKDEC: riskdec,
  TRANSACTIONUPDATE: transactionupdate,
  TRANSACTIONQUERY: transactionquery,
};
