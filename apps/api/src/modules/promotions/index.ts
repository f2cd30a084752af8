// The promotions module's public face: other modules import only from here.
export { PromotionsModule } from './promotions.module';
