import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'synthorg:public';

/** Marks a route (or controller) as reachable without authentication. Every other route needs a guard. */
export const Public = (): ClassDecorator & MethodDecorator => SetMetadata(IS_PUBLIC, true);
