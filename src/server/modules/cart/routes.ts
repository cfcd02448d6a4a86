import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { addCartItemSchema, updateCartItemSchema } from '../../../contracts/cart';
import { idParam } from '../../../contracts/product';
import { Forbidden } from '../../lib/errors';
import { requireUser } from '../auth/request-user';
import type { CartService } from './service';

const cartParams = z.strictObject({ userId: idParam('User id') });
const lineParams = z.strictObject({ userId: idParam('User id'), itemId: idParam('Item id') });

/** ARCHITECTURE difference 3: a cart answers only to its owner; checked before the body is read. */
async function ownCartOnly(request: FastifyRequest): Promise<void> {
  const user = await requireUser(request);
  const { userId } = request.params as { userId?: string };
  if (String(user.id) !== userId) throw new Forbidden('You can only use your own cart.');
}

export function cartRoutes(cart: CartService): FastifyPluginAsyncZod {
  return async (app) => {
    const guarded = { onRequest: ownCartOnly };

    app.get('/api/cart/:userId', { ...guarded, schema: { params: cartParams } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return cart.get(request.params.userId);
    });

    app.post('/api/cart/:userId/items', { ...guarded, schema: { params: cartParams, body: addCartItemSchema } }, async (request) =>
      cart.addItem(request.params.userId, request.body.productId, request.body.quantity),
    );

    app.put('/api/cart/:userId/items/:itemId', { ...guarded, schema: { params: lineParams, body: updateCartItemSchema } }, async (request) =>
      cart.updateItem(request.params.userId, request.params.itemId, request.body.quantity),
    );

    app.delete('/api/cart/:userId/items/:itemId', { ...guarded, schema: { params: lineParams } }, async (request) =>
      cart.removeItem(request.params.userId, request.params.itemId),
    );

    app.delete('/api/cart/:userId', { ...guarded, schema: { params: cartParams } }, async (request) => cart.clear(request.params.userId));
  };
}
