/**
 * A partner's Vue 3 app (built by tests/partner-apps/build.mjs, driven by tests/e2e/partner.spec.ts):
 * vue-router routes that create and remove the elements, templates typed by the package's Vue typings
 * (vue-tsc). The elements are defined only after the first render, so Vue sets their camelCase props on
 * elements that are not defined yet.
 */
import { createApp } from 'vue';
import { createRouter, createWebHistory } from 'vue-router';
import App from './App.vue';
import AwardView from './AwardView.vue';
import CatalogueView from './CatalogueView.vue';
import CourseView from './CourseView.vue';

declare global {
  interface Window {
    WAYMARK_URL: string;
    wmEvents: { type: string; detail: unknown }[];
  }
}
window.wmEvents = [];
setTimeout(() => void import('@waymark/elements'), 300);

const router = createRouter({
  history: createWebHistory(),
  routes: [
    { path: '/vue/', component: CatalogueView },
    { path: '/vue/course/:id', component: CourseView, props: true },
    { path: '/vue/award/:id', component: AwardView, props: true },
  ],
});
createApp(App).use(router).mount('#app');
