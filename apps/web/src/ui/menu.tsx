import {
  createContext,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type ReactNode,
  type RefObject,
  use,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { cx } from '#lib/cx.ts';
import { Button, type ButtonProps } from './button.tsx';

// A menu button after the WAI-ARIA pattern (https://www.w3.org/WAI/ARIA/apg/patterns/menu-button/),
// hand-made rather than Radix's dropdown menu, whose positioning engine (~20 kB gzip) would not fit
// the JS budget (docs/decisions/006-web-js-budget.md). Items are found in the DOM by their role,
// so an item may be any element: a button, an <a>, a wouter <Link>.

type FocusTarget = 'first' | 'last' | 'next' | 'previous';

type MenuContextValue = {
  open: boolean;
  triggerId: string;
  menuId: string;
  triggerRef: RefObject<HTMLButtonElement | null>;
  menuRef: RefObject<HTMLDivElement | null>;
  openMenu: (focus: 'first' | 'last') => void;
  closeMenu: (options: { returnFocus: boolean }) => void;
  toggleMenu: () => void;
};

const MenuContext = createContext<MenuContextValue | null>(null);

function useMenuContext(): MenuContextValue {
  const value = use(MenuContext);
  if (!value) throw new Error('Menu parts must be used inside <Menu>');
  return value;
}

const ITEM_SELECTOR = '[role="menuitem"]:not([aria-disabled="true"])';

const FOCUS_KEYS: Partial<Record<string, FocusTarget>> = {
  ArrowDown: 'next',
  ArrowUp: 'previous',
  Home: 'first',
  End: 'last',
};

/** Spread on each item, whatever its element: `<button type="button" {...menuItemProps}>`, `<Link {...menuItemProps}>`. */
export const menuItemProps = {
  role: 'menuitem',
  // Roving focus: arrows move it, Tab leaves the menu.
  tabIndex: -1,
  className:
    'flex w-full cursor-pointer items-center gap-2.5 rounded-md px-3 py-2.5 text-left text-sm font-medium outline-none select-none hover:bg-surface-2 hover:text-brand focus-visible:bg-surface-2 focus-visible:text-brand',
} as const;

function focusItem(menu: HTMLElement | null, target: FocusTarget) {
  if (!menu) return;
  const items = Array.from(menu.querySelectorAll<HTMLElement>(ITEM_SELECTOR));
  if (items.length === 0) return;
  const focused = document.activeElement;
  const current = focused instanceof HTMLElement ? items.indexOf(focused) : -1;
  const last = items.length - 1;
  const index = {
    first: 0,
    last,
    next: current === last ? 0 : current + 1,
    previous: current <= 0 ? last : current - 1,
  }[target];
  items[index]?.focus();
}

/** Holds a <MenuTrigger> and its <MenuContent>; the content opens below the trigger, right-aligned. */
export function Menu({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const triggerId = useId();
  const menuId = useId();
  const wrapperRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const focusOnOpenRef = useRef<'first' | 'last'>('first');

  useEffect(() => {
    if (!open) return;
    focusItem(menuRef.current, focusOnOpenRef.current);
    // A press anywhere else closes the menu; focus goes where that press takes it.
    const closeOnPressOutside = (event: Event) => {
      if (event.target instanceof Node && wrapperRef.current?.contains(event.target)) return;
      setOpen(false);
    };
    document.addEventListener('pointerdown', closeOnPressOutside);
    return () => document.removeEventListener('pointerdown', closeOnPressOutside);
  }, [open]);

  const openMenu = (focus: 'first' | 'last') => {
    focusOnOpenRef.current = focus;
    if (open) focusItem(menuRef.current, focus);
    else setOpen(true);
  };
  const closeMenu = ({ returnFocus }: { returnFocus: boolean }) => {
    if (returnFocus) triggerRef.current?.focus();
    setOpen(false);
  };
  const toggleMenu = () => {
    if (open) closeMenu({ returnFocus: true });
    else openMenu('first');
  };

  return (
    <MenuContext value={{ open, triggerId, menuId, triggerRef, menuRef, openMenu, closeMenu, toggleMenu }}>
      <div ref={wrapperRef} className="relative">
        {children}
      </div>
    </MenuContext>
  );
}

/** Our Button that opens the menu: click, Enter or Space or ArrowDown focus the first item, ArrowUp the last. */
export function MenuTrigger({ onClick, onKeyDown, ...props }: ButtonProps) {
  const menu = useMenuContext();
  return (
    <Button
      {...props}
      ref={menu.triggerRef}
      id={menu.triggerId}
      aria-haspopup="menu"
      aria-expanded={menu.open}
      aria-controls={menu.open ? menu.menuId : undefined}
      onClick={(event) => {
        onClick?.(event);
        menu.toggleMenu();
      }}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
        event.preventDefault();
        menu.openMenu(event.key === 'ArrowDown' ? 'first' : 'last');
      }}
    />
  );
}

/**
 * The menu itself, mounted only while open. Arrows, Home and End move focus among the items
 * (wrapping); Escape closes and returns focus to the trigger; Tab closes and lets focus move on;
 * choosing an item runs it and closes.
 */
export function MenuContent({ className, children }: { className?: string; children: ReactNode }) {
  const menu = useMenuContext();
  if (!menu.open) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = FOCUS_KEYS[event.key];
    if (target) {
      event.preventDefault();
      focusItem(menu.menuRef.current, target);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      menu.closeMenu({ returnFocus: true });
    } else if (event.key === 'Tab') {
      // Focus goes back to the trigger first, so the browser's own Tab (not prevented) moves on
      // from there to the next element of the page, and Shift+Tab to the one before.
      menu.closeMenu({ returnFocus: true });
    } else if (event.key === ' ' && event.target instanceof HTMLAnchorElement) {
      // Buttons answer Space themselves; a link only answers Enter.
      event.preventDefault();
      event.target.click();
    }
  };

  const closeOnChoice = (event: MouseEvent<HTMLDivElement>) => {
    if (event.target instanceof Element && event.target.closest(ITEM_SELECTOR)) {
      menu.closeMenu({ returnFocus: true });
    }
  };

  // Focus follows the pointer, so one item only looks highlighted, whichever way the user came.
  const focusHoveredItem = (event: PointerEvent<HTMLDivElement>) => {
    const hovered = event.target instanceof Element ? event.target.closest(ITEM_SELECTOR) : null;
    if (hovered instanceof HTMLElement && hovered !== document.activeElement) hovered.focus();
  };

  return (
    <div
      ref={menu.menuRef}
      id={menu.menuId}
      role="menu"
      aria-labelledby={menu.triggerId}
      // Focusable so that a press on the menu's text keeps the keyboard inside it.
      tabIndex={-1}
      onKeyDown={onKeyDown}
      onClick={closeOnChoice}
      onPointerMove={focusHoveredItem}
      className={cx(
        'absolute top-full right-0 z-50 mt-2 rounded-xl border border-line bg-surface p-1.5 shadow-2xl outline-none',
        className,
      )}
    >
      {children}
    </div>
  );
}

export function MenuSeparator() {
  return <hr className="mx-1 my-1 border-line" />;
}
