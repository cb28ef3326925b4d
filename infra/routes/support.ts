/** The routes of endpoint group `support` (`packages/functions/src/groups/support.ts`). */
import type { RouteSpec } from './types';

export const supportRoutes: readonly RouteSpec[] = [
  {
    method: 'GET',
    path: '/api/tickets',
    group: 'support',
    auth: 'user',
    throttle: 'tickets_list',
    summary: 'The learner’s support tickets.',
  },
  {
    method: 'POST',
    path: '/api/tickets',
    group: 'support',
    auth: 'user',
    throttle: 'ticket_create',
    summary: 'Open a support ticket { subject, text }.',
  },
  {
    method: 'GET',
    path: '/api/tickets/{id}',
    group: 'support',
    auth: 'user',
    throttle: 'ticket_read',
    summary: 'One of the learner’s tickets with its messages.',
  },
  {
    method: 'POST',
    path: '/api/tickets/{id}/messages',
    group: 'support',
    auth: 'user',
    throttle: 'ticket_message',
    summary: 'Add a message { text } to one of the learner’s tickets.',
  },
];
