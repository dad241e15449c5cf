import { paymentEndpoints as endpoints } from '@upnext/contract/payments';
import type { FastifyPluginAsync } from 'fastify';
import { hasSmsPath } from '../../auth/sms.ts';
import type { ApiDeps } from '../../http/api.ts';
import { registerEndpoint } from '../../http/endpoint.ts';
import { AppError } from '../../lib/errors.ts';
import * as service from './payments.service.ts';
import type { PaymentsRuntime } from './providers.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The payment provider chosen at start (modules/payments/providers.ts). */
    payments: PaymentsRuntime;
  }
}

/** Payments (spec §7 `payment-gateway/payment`; PRODUCT.md "Payments"). */
export const paymentRoutes: FastifyPluginAsync<ApiDeps & { payments: PaymentsRuntime }> = async (
  app,
  options,
) => {
  const deps: service.PaymentsDeps = {
    db: options.database.db,
    clock: options.clock,
    publisher: options.publisher,
    publicUrl: options.config.publicUrl,
    smsEnabled: hasSmsPath(options.config),
    payments: options.payments,
  };

  registerEndpoint(app, endpoints.createPayment, (request) =>
    service.createPayment(deps, request.caller, request.body),
  );
  registerEndpoint(app, endpoints.getPayment, (request) =>
    service.getPayment(deps, request.caller, request.params.paymentId),
  );
  registerEndpoint(app, endpoints.listCompanyPayments, (request) =>
    service.listCompanyPayments(deps, request.caller, request.params.companyId, request.query),
  );
  registerEndpoint(app, endpoints.refundPayment, (request) =>
    service.refundPayment(deps, request.caller, request.params.paymentId, request.body),
  );
  registerEndpoint(app, endpoints.cancelPlan, (request) =>
    service.cancelPlan(deps, request.caller, request.params.companyId),
  );

  // The webhook is checked on its raw bytes: in its own scope, every body stays a Buffer.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
      done(null, body);
    });
    registerEndpoint(scope, endpoints.paymentWebhook, (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      return service.receiveWebhook(deps, request.params.provider, raw, request.headers);
    });
  });

  // The sandbox checkout page's API (public; only while the sandbox is the provider).
  const sandbox = () => {
    if (!options.payments.sandbox) {
      throw new AppError('payments_unavailable', 'The sandbox checkout is not available here.');
    }
    return options.payments.sandbox;
  };
  registerEndpoint(app, endpoints.getSandboxCheckout, (request) =>
    sandbox().view(request.params.checkoutId),
  );
  registerEndpoint(app, endpoints.paySandboxCheckout, (request) =>
    sandbox().pay(request.params.checkoutId, request.body),
  );
  registerEndpoint(app, endpoints.confirmSandboxCheckout, (request) =>
    sandbox().confirm(
      request.params.checkoutId,
      request.body.confirmationToken,
      request.body.approve,
    ),
  );
  registerEndpoint(app, endpoints.cancelSandboxCheckout, (request) =>
    sandbox().cancel(request.params.checkoutId),
  );
};
