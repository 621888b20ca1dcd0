import { mountHarness } from 'shared/harness';
import type { SectionMenu } from 'shared';
import Section from './section';
import menu from './menu.json';

mountHarness(Section, menu as SectionMenu, document.getElementById('root')!);
