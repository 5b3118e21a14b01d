/** An address the app does not know. */

import {h, mount, setTitle} from '../dom.js';

export function render(main, {path}) {
  setTitle('Not found');
  mount(main, h('h1', {class: 'page-title'}, 'Nothing here'),
    h('p', {}, `There is no screen at ${path}.`), h('a', {class: 'btn', href: '/'}, 'Home'));
}
